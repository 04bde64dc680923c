import type {
	IDataObject,
	IExecuteFunctions,
	ResourceMapperField,
	ResourceMapperValue,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formatMention } from '../../../shared/formats';
import { noticeOnOutput } from '../../../shared/hints';
import { listFieldOf, listValue, type ListField } from './listInputs';
import { parseScalar } from './parameters';

/**
 * Start Generation's inputs from its resource mapper: the fields filled in the panel, or, in
 * "map automatically" mode, the input item's fields named like the format's inputs; then the
 * lists given under List Inputs. Unset fields are left out; a required one missing is a parameter
 * error that names it, before anything is sent.
 */
export function mappedInputs(
	ctx: IExecuteFunctions,
	format: FormatNamed,
	itemIndex: number,
): IDataObject {
	const mapper = ctx.getNodeParameter('inputs', itemIndex, {}) as Partial<ResourceMapperValue>;
	const fields = mapper.schema ?? [];
	// A list's field is read whatever n8n marks it: "Remove All Inputs" marks the hidden fields
	// removed too, and "Add All Inputs" brings back only the fields it shows.
	const lists = new Map(
		fields.flatMap((field) => {
			const list = listFieldOf(field);
			return list ? [[list.name, list] as const] : [];
		}),
	);
	const schema = fields.filter((field) => !field.removed && !listFieldOf(field));
	const given = givenLists(ctx, itemIndex).map((entry) => ({
		...entry,
		name: entry.name || onlyList(ctx, format, lists, fields.length > 0, itemIndex),
	}));
	const values =
		mapper.mappingMode === 'autoMapInputData'
			? fieldsOfItem(ctx.getInputData()[itemIndex]?.json ?? {}, schema, lists)
			: shownOnly(ctx, fieldValues(ctx, format, fields, itemIndex), schema, lists, given);
	const untyped = new Set(schema.filter((field) => !field.type).map((field) => field.id));
	const input: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (value === null || value === undefined || value === '') continue;
		const list = lists.get(name);
		if (list) {
			setList(ctx, input, name, list, value, itemIndex);
			continue;
		}
		// A field the format gave no type: typed text like "12" or "true" goes as a number or boolean.
		input[name] = untyped.has(name) && typeof value === 'string' ? parseScalar(value) : value;
	}
	for (const entry of given) {
		// An input the loaded fields do not know (a format given by expression, fields loaded before
		// the format changed) goes as a list of texts: the service is the judge of it.
		const list = lists.get(entry.name) ?? unknownList(ctx, schema, entry.name, itemIndex);
		delete input[entry.name];
		setList(ctx, input, entry.name, list, entry.entries, itemIndex);
	}
	const missing: Needed[] = [
		...schema
			.filter((field) => field.required)
			.map((field) => ({ name: field.id, label: field.displayName, list: false })),
		...[...lists.values()]
			.filter((list) => list.required)
			.map(({ name, label }) => ({ name, label, list: true })),
	].filter((entry) => !(entry.name in input));
	if (missing.length > 0) refuseMissing(ctx, format, mapper.mappingMode, missing, itemIndex);
	return input;
}

/** An input the format requires, by its input's name and label, and whether it is a list. */
interface Needed {
	name: string;
	label: string;
	list: boolean;
}

/** Required inputs not given: a parameter error naming each, and where it is filled. */
function refuseMissing(
	ctx: IExecuteFunctions,
	format: FormatNamed,
	mappingMode: string | undefined,
	missing: Needed[],
	itemIndex: number,
): never {
	const quoted = (entries: Needed[]) => entries.map((entry) => `"${entry.label}"`).join(', ');
	const [listsMissing, fieldsMissing] = [
		missing.filter((entry) => entry.list),
		missing.filter((entry) => !entry.list),
	];
	// Where each is filled: a field under Format Inputs, a list under List Inputs.
	const where = [
		fieldsMissing.length ? `fill ${quoted(fieldsMissing)} under Format Inputs` : '',
		listsMissing.length ? `add ${quoted(listsMissing)} under List Inputs, one entry per line` : '',
	].filter(Boolean);
	throw new NodeOperationError(
		ctx.getNode(),
		`Format ${formatMention(format)} needs ${quoted(missing)}`,
		{
			itemIndex,
			description:
				mappingMode === 'autoMapInputData'
					? `The input item has no field ${missing.map((entry) => entry.name).join(', ')}. Rename it with an Edit Fields node, or choose "Map Each Input Manually" under Format Inputs.`
					: `${capitalised(where.join('; '))}. Nothing was started.`,
		},
	);
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A format as the run knows it: its id, and its display name when the picker kept one. */
export interface FormatNamed {
	id: string;
	name?: string;
}

/** One list input's entries, read and typed; an empty list is not sent. */
function setList(
	ctx: IExecuteFunctions,
	input: IDataObject,
	name: string,
	list: ListField,
	value: unknown,
	itemIndex: number,
) {
	const read = listValue(value, list);
	if ('bad' in read) {
		throw new NodeOperationError(ctx.getNode(), `"${list.label}": ${read.bad}`, {
			itemIndex,
			description: `"${list.label}" is a list of ${list.itemWords}: one per line.`,
		});
	}
	if (read.list.length > 0) input[name] = read.list as IDataObject[];
}

/** List Inputs as filled: each entry's input (from the list, an id, or '' for the only one) and its text or array. */
function givenLists(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Array<{ name: string; entries: unknown }> {
	const rows = ctx.getNodeParameter('listInputs.input', itemIndex, []) as Array<{
		name?: unknown;
		entries?: unknown;
	}>;
	return rows.map((row) => ({ name: String(row.name ?? '').trim(), entries: row.entries }));
}

/**
 * A List Inputs row left at its first choice (''): the format's only list, if its loaded inputs
 * show one. Loaded with none: the format takes none. Not loaded (a format given by expression):
 * the row must name its input.
 */
function onlyList(
	ctx: IExecuteFunctions,
	format: FormatNamed,
	lists: Map<string, ListField>,
	loaded: boolean,
	itemIndex: number,
): string {
	if (lists.size === 1) return [...lists.keys()][0];
	const none = loaded && lists.size === 0;
	throw new NodeOperationError(
		ctx.getNode(),
		none
			? `Format ${formatMention(format)} takes no list`
			: 'A list under List Inputs has no input chosen',
		{
			itemIndex,
			description: none
				? 'Remove the entries under List Inputs, and fill its inputs under Format Inputs.'
				: 'Choose its input in "Input Name or ID" (or give its id, e.g. captions), or remove the entry.',
		},
	);
}

/** A List Inputs entry for an input Format Inputs does not hold as a list. */
function unknownList(
	ctx: IExecuteFunctions,
	schema: ResourceMapperField[],
	name: string,
	itemIndex: number,
): ListField {
	const field = schema.find((entry) => entry.id === name);
	if (field) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"${field.displayName}" is not a list: fill it under Format Inputs`,
			{
				itemIndex,
				description: 'Choose a list input under List Inputs, or remove the entry.',
			},
		);
	}
	return { name, label: name, itemWords: 'texts', required: false };
}

/**
 * The values of fields the panel shows. A value kept for one it no longer shows (an input the
 * format dropped, or a list a panel of another shape kept) is one the user can neither see nor
 * remove there: it is not sent, and the run says so, unless List Inputs gives that list, which is
 * then what is sent. n8n drops such a value when Format Inputs changes once the field is gone from
 * it (its list refreshed, then an input changed).
 */
function shownOnly(
	ctx: IExecuteFunctions,
	values: IDataObject,
	schema: ResourceMapperField[],
	lists: Map<string, ListField>,
	given: Array<{ name: string }>,
): IDataObject {
	const shown = new Set(schema.filter((field) => field.display !== false).map((f) => f.id));
	const listed = new Set(given.map((entry) => entry.name));
	const hidden = Object.keys(values).filter(
		(name) =>
			!shown.has(name) &&
			!listed.has(name) &&
			![null, undefined, ''].includes(values[name] as never),
	);
	if (hidden.length) {
		const named = hidden.map((name) => `"${lists.get(name)?.label ?? name}"`).join(', ');
		const listsToo = hidden.some((name) => lists.has(name))
			? ' Give lists under List Inputs, one entry per line.'
			: '';
		noticeOnOutput(
			ctx,
			`Format Inputs keeps a value for ${named}, which its panel no longer shows: it was not sent.${listsToo} To remove the value, open Format Inputs, refresh its list of inputs, then change any input there.`,
		);
	}
	return Object.fromEntries(Object.entries(values).filter(([name]) => shown.has(name)));
}

function fieldsOfItem(
	json: IDataObject,
	schema: ResourceMapperField[],
	lists: Map<string, ListField>,
): IDataObject {
	return Object.fromEntries(
		[...schema.map((field) => field.id), ...lists.keys()]
			.filter((name) => json[name] !== undefined)
			.map((name) => [name, json[name]]),
	);
}

/**
 * The fields as filled, read through n8n so it checks and converts each value to its field's type.
 * n8n names a field it refuses by its id ("Invalid input for 'prompt'"): the error names it by its
 * label, as the panel shows it, and a required one without a value (an expression that gave
 * nothing) says so.
 */
function fieldValues(
	ctx: IExecuteFunctions,
	format: FormatNamed,
	schema: ResourceMapperField[],
	itemIndex: number,
): IDataObject {
	try {
		return (ctx.getNodeParameter('inputs.value', itemIndex, {}) ?? {}) as IDataObject;
	} catch (error) {
		const { message = '', description } = error as Error & { description?: string };
		const named = /['"]([^'"]+)['"]/.exec(message)?.[1];
		const field = schema.find((entry) => entry.id === named);
		if (!field) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		const label = field.displayName;
		const said = `${message} ${description ?? ''}`;
		if (field.required && /required but not set|got (undefined|null)\b/.test(said)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Format ${formatMention(format)} needs "${label}"`,
				{
					itemIndex,
					description: `Fill "${label}" under Format Inputs (its expression gave nothing). Nothing was started.`,
				},
			);
		}
		const byLabel = (text: string) =>
			text.split(`'${field.id}'`).join(`"${label}"`).split(`"${field.id}"`).join(`"${label}"`);
		throw new NodeOperationError(ctx.getNode(), byLabel(message), {
			itemIndex,
			description: byLabel(description ?? '') || undefined,
		});
	}
}
