import type { FieldType, IDataObject } from 'n8n-workflow';

import type { FormatInput } from '../../../shared/shapes';

/**
 * A format input that takes a list (a slideshow's slides or captions). n8n's resource mapper
 * gives every field one line, so a list is filled under "List Inputs" instead, in a box of several
 * lines: one entry per line, commas kept inside an entry. In Format Inputs it stays as a hidden
 * field whose label records what the run needs to know of it (the label is all a saved mapper
 * field keeps): "Captions (list of texts)", "Slides (list of texts, required)".
 */
const LIST_LABEL = /^(.*) \(list(?: of (numbers|true\/false values|texts))?(, required)?\)$/;
const ITEM_WORDS: Partial<Record<FieldType, string>> = {
	number: 'numbers',
	boolean: 'true/false values',
	string: 'texts',
};

/** The label of a list input's (hidden) mapper field. */
export function listLabel(input: FormatInput): string {
	const items = input.itemType ? ITEM_WORDS[input.itemType] : undefined;
	return `${input.label} (list${items ? ` of ${items}` : ''}${input.required ? ', required' : ''})`;
}

/** A field of Format Inputs that is a list input: its input's own label, and its items' type. */
export interface ListField {
	label: string;
	itemType?: FieldType;
	/** "numbers", "true/false values", "texts", or "items" when the format does not say. */
	itemWords: string;
	required: boolean;
}

/** For a field of Format Inputs: the list input it is, or undefined. */
export function listFieldOf(displayName: string): ListField | undefined {
	const match = LIST_LABEL.exec(displayName);
	if (!match) return undefined;
	const itemType = (Object.entries(ITEM_WORDS) as Array<[FieldType, string]>).find(
		([, words]) => words === match[2],
	)?.[0];
	return {
		label: match[1],
		...(itemType ? { itemType } : {}),
		itemWords: match[2] ?? 'items',
		required: match[3] !== undefined,
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
