/**
 * A studio format's inputs. The spec: "Studio format | has an id …, inputs, and credit price |
 * Field names and shape of the format record: not shown."
 */
import type { FieldType, IDataObject, INodePropertyOptions } from 'n8n-workflow';

/** One input a studio format takes, in one shape whatever shape the service gave. */
export interface FormatInput {
	name: string;
	label: string;
	/** True only when the format says so; a bare list of names does not. */
	required: boolean;
	/** Undefined when the format does not say: the value is then read as typed (numbers, true/false, JSON). */
	type?: FieldType;
	/** For a list (`type: 'array'`): the type of its items, when the format says (JSON Schema `items`). */
	itemType?: FieldType;
	description?: string;
	options?: INodePropertyOptions[];
}

/**
 * A format's inputs. The spec says a format "has … inputs" and nothing of their shape, so these
 * are read: a list of names (`['prompt']`); a list of field records (`[{ name, type, required }]`,
 * the name also as `key`/`id`/`field`); a map of name → record, type or required flag
 * (`{ prompt: { type: 'string' } }`, `{ prompt: 'string' }`, `{ prompt: true }`); and a JSON
 * Schema (`{ type: 'object', properties, required: [...] }`). Anything else gives no inputs, so
 * the panel falls back to name/value pairs.
 */
export function normaliseFormatInputs(inputs: unknown): FormatInput[] {
	if (typeof inputs === 'string') return normaliseFormatInputs(inputs.split(','));
	if (Array.isArray(inputs)) return inputs.map((entry) => fromListEntry(entry)).filter(isInput);
	if (!inputs || typeof inputs !== 'object') return [];
	const record = inputs as IDataObject;
	if (record.properties && typeof record.properties === 'object') return fromJsonSchema(record);
	return Object.entries(record)
		.map(([name, value]) => fromMapEntry(name, value))
		.filter(isInput);
}

function fromListEntry(entry: unknown): FormatInput | undefined {
	if (typeof entry === 'string') return entry.trim() ? field(entry.trim(), {}) : undefined;
	if (!entry || typeof entry !== 'object') return undefined;
	const record = entry as IDataObject;
	const name = record.name ?? record.key ?? record.id ?? record.field;
	return typeof name === 'string' && name ? field(name, record) : undefined;
}

function fromMapEntry(name: string, value: unknown): FormatInput | undefined {
	if (typeof value === 'boolean') return field(name, { required: value });
	if (typeof value === 'string') return field(name, { type: value });
	if (value && typeof value === 'object' && !Array.isArray(value))
		return field(name, value as IDataObject);
	return field(name, {});
}

function fromJsonSchema(schema: IDataObject): FormatInput[] {
	const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
	return Object.entries(schema.properties as IDataObject).map(([name, value]) => {
		const property = (value && typeof value === 'object' ? value : {}) as IDataObject;
		return field(name, {
			...property,
			required: required.includes(name) || property.required === true,
		});
	});
}

function field(name: string, record: IDataObject): FormatInput {
	const label = record.label ?? record.displayName ?? record.title;
	const description = record.description ?? record.help ?? record.hint;
	const options = optionsOf(record.options ?? record.enum ?? record.values ?? record.choices);
	return {
		name,
		label: typeof label === 'string' && label ? label : labelOf(name),
		required: record.required === true || record.optional === false,
		...(options ? { type: 'options' as const } : typeOf(record)),
		...itemTypeOf(record),
		...(typeof description === 'string' && description ? { description } : {}),
		...(options ? { options } : {}),
	};
}

/** "demoUrl" → "Demo URL", "video_length" → "Video Length". */
function labelOf(name: string): string {
	return name
		.replace(/[_-]+/g, ' ')
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(' ')
		.filter(Boolean)
		.map((word) =>
			/^(url|id|cta)$/i.test(word) ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1),
		)
		.join(' ');
}

const TYPES: Record<string, FieldType> = {
	string: 'string',
	text: 'string',
	str: 'string',
	number: 'number',
	integer: 'number',
	int: 'number',
	float: 'number',
	decimal: 'number',
	boolean: 'boolean',
	bool: 'boolean',
	url: 'url',
	uri: 'url',
	date: 'dateTime',
	datetime: 'dateTime',
	'date-time': 'dateTime',
	array: 'array',
	list: 'array',
	object: 'object',
	json: 'object',
};

/** The field's type from `type` (or `kind`), refined by a JSON Schema `format` (uri, date-time). */
function typeOf(record: IDataObject): { type?: FieldType } {
	const format = typeof record.format === 'string' ? TYPES[record.format.toLowerCase()] : undefined;
	const declared = [record.type, record.kind].find(
		(value): value is string => typeof value === 'string',
	);
	const type = declared ? (TYPES[declared.toLowerCase()] ?? 'string') : undefined;
	if (type === 'string' && format) return { type: format };
	return type ? { type } : {};
}

/** A list's item type: JSON Schema `items: { type }`, or `items`/`itemType`/`of` naming a type. */
function itemTypeOf(record: IDataObject): { itemType?: FieldType } {
	if (typeOf(record).type !== 'array') return {};
	const items = record.items ?? record.itemType ?? record.of;
	const declared = items && typeof items === 'object' ? (items as IDataObject).type : items;
	const type = typeof declared === 'string' ? TYPES[declared.toLowerCase()] : undefined;
	return type && type !== 'array' && type !== 'object' ? { itemType: type } : {};
}

function optionsOf(value: unknown): INodePropertyOptions[] | undefined {
	if (!Array.isArray(value) || value.length === 0) return undefined;
	return value.map((option) => {
		if (option && typeof option === 'object') {
			const record = option as IDataObject;
			const optionValue = (record.value ?? record.id ?? record.name) as string | number;
			return { name: String(record.label ?? record.name ?? optionValue), value: optionValue };
		}
		return { name: String(option), value: option as string | number };
	});
}

function isInput(entry: FormatInput | undefined): entry is FormatInput {
	return entry !== undefined;
}
