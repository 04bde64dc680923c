import type { FieldType, IDataObject, ResourceMapperField } from 'n8n-workflow';

import type { FormatInput } from '../../../shared/shapes';

/**
 * A format input that takes a list (a slideshow's slides or captions). n8n's resource mapper
 * gives every field one line, so a list is filled under "List Inputs" instead, in a box of several
 * lines: one entry per line, commas kept inside an entry. In Format Inputs it stays as a hidden
 * field of n8n's type `array`, and its id keeps what the run needs of it, in words no label
 * changes: `list:<item type>:<required|optional>:<input>` (`list:number:optional:cuts`; `any`
 * when the format gives no item type). That id is not the input's name, so a value a panel of
 * another shape kept under the name is no field of the mapper: n8n drops it once Format Inputs
 * changes.
 */
const ITEM_WORDS: Partial<Record<FieldType, string>> = {
	number: 'numbers',
	boolean: 'true/false values',
	string: 'texts',
};

/** The label of a list input where a user picks it (List Inputs): "Cuts (list of numbers)". */
export function listLabel(input: FormatInput): string {
	const items = input.itemType ? ITEM_WORDS[input.itemType] : undefined;
	return `${input.label} (list${items ? ` of ${items}` : ''}${input.required ? ', required' : ''})`;
}

/** A list input's hidden field in Format Inputs. */
export function listField(input: FormatInput): ResourceMapperField {
	return {
		id: `list:${input.itemType ?? 'any'}:${input.required ? 'required' : 'optional'}:${input.name}`,
		displayName: input.label,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: false,
		type: 'array',
	};
}

/** A list input as the run knows it from its hidden field: its input, label and items' type. */
export interface ListField {
	/** The input's name, as the service takes it. */
	name: string;
	label: string;
	itemType?: FieldType;
	/** "numbers", "true/false values", "texts", or "items" when the format does not say. */
	itemWords: string;
	required: boolean;
}

/** For a field of Format Inputs: the list input it holds, or undefined. */
export function listFieldOf(
	field: Pick<ResourceMapperField, 'id' | 'displayName'>,
): ListField | undefined {
	const [kind, items, need, ...rest] = field.id.split(':');
	const name = rest.join(':');
	if (kind !== 'list' || !items || !['required', 'optional'].includes(need) || !name)
		return undefined;
	const itemType = items === 'any' ? undefined : (items as FieldType);
	return {
		name,
		label: field.displayName || name,
		...(itemType ? { itemType } : {}),
		itemWords: (itemType && ITEM_WORDS[itemType]) || 'items',
		required: need === 'required',
	};
}

/**
 * A list input's value as the service takes it: an array (from an expression) as it is; text that
 * is a JSON array (pasted) as that array; other text one entry per line, commas kept; each entry
 * converted to the list's item type. Returns the reason when an entry is not of that type.
 */
export function listValue(
	value: unknown,
	field: Pick<ListField, 'itemType'>,
): { list: unknown[] } | { bad: string } {
	if (Array.isArray(value)) return { list: value };
	const text = String(value ?? '');
	const pasted = jsonArray(text);
	if (pasted) return { list: pasted };
	const lines = text.split(/\r?\n/);
	const list: IDataObject[string][] = [];
	for (const entry of lines.map((line) => line.trim()).filter((line) => line !== '')) {
		if (field.itemType === 'number') {
			const number = Number(entry);
			if (!Number.isFinite(number)) return { bad: `"${entry}" is not a number` };
			list.push(number);
		} else if (field.itemType === 'boolean') {
			if (!/^(true|false)$/i.test(entry)) return { bad: `"${entry}" is not true or false` };
			list.push(entry.toLowerCase() === 'true');
		} else {
			list.push(entry);
		}
	}
	return { list };
}

function jsonArray(text: string): unknown[] | undefined {
	const trimmed = text.trim();
	if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return undefined;
	try {
		const parsed: unknown = JSON.parse(trimmed);
		return Array.isArray(parsed) ? parsed : undefined;
	} catch {
		// "[Intro]" typed as an entry, not JSON: read as text.
		return undefined;
	}
}
