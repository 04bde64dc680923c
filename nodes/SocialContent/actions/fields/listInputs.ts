import type { FieldType, IDataObject } from 'n8n-workflow';

import type { FormatInput } from '../../../shared/shapes';

/**
 * A format input that takes a list (a slideshow's captions) is shown in Format Inputs as a text
 * field, since n8n's resource mapper gives lists only a JSON editor: one item per line, or
 * separated by commas. Its label says so, and names the items' type; the label is what the saved
 * field keeps of it (a mapper field has no room for more), so the run reads the list back from it.
 */
const LIST_LABEL =
	/^(.*) \(list(?: of (numbers|true\/false values|texts))?: one per line, or comma-separated\)$/;
const ITEM_WORDS: Partial<Record<FieldType, string>> = {
	number: 'numbers',
	boolean: 'true/false values',
	string: 'texts',
};

/** The label of a list input's field. */
export function listLabel(input: FormatInput): string {
	const items = input.itemType ? ITEM_WORDS[input.itemType] : undefined;
	return `${input.label} (list${items ? ` of ${items}` : ''}: one per line, or comma-separated)`;
}

/** A field of Format Inputs that is a list input: its input's own label, and its items' type. */
export interface ListField {
	label: string;
	itemType?: FieldType;
	/** "numbers", "true/false values", "texts", or "items" when the format does not say. */
	itemWords: string;
}

/** For a field of Format Inputs: the list input it is, or undefined. */
export function listFieldOf(displayName: string): ListField | undefined {
	const match = LIST_LABEL.exec(displayName);
	if (!match) return undefined;
	const itemType = (Object.entries(ITEM_WORDS) as Array<[FieldType, string]>).find(
		([, words]) => words === match[2],
	)?.[0];
	return { label: match[1], ...(itemType ? { itemType } : {}), itemWords: match[2] ?? 'items' };
}

/**
 * A list input's value as the service takes it: an array (from an expression) as it is; text split
 * on new lines, or on commas when it has none; each item converted to the list's item type.
 * Returns the reason when an item is not of that type.
 */
export function listValue(
	value: unknown,
	itemType: FieldType | undefined,
): { list: unknown[] } | { bad: string } {
	if (Array.isArray(value)) return { list: value };
	const text = String(value ?? '');
	const items = (text.includes('\n') ? text.split(/\r?\n/) : text.split(','))
		.map((item) => item.trim())
		.filter((item) => item !== '');
	const list: IDataObject[string][] = [];
	for (const item of items) {
		if (itemType === 'number') {
			const number = Number(item);
			if (!Number.isFinite(number)) return { bad: `"${item}" is not a number` };
			list.push(number);
		} else if (itemType === 'boolean') {
			if (!/^(true|false)$/i.test(item)) return { bad: `"${item}" is not true or false` };
			list.push(item.toLowerCase() === 'true');
		} else {
			list.push(item);
		}
	}
	return { list };
}
