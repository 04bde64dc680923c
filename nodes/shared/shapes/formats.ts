/**
 * A studio format record. The spec: "Studio format | has an id (`formatId` when used in a
 * request), inputs, and credit price | Field names and shape of the format record: not shown."
 */
import type { IDataObject } from 'n8n-workflow';

import { normaliseFormatInputs, type FormatInput } from './formatInputs';
import { unwrapList } from './lists';

export interface StudioFormat {
	id: string;
	name: string;
	/** Credits one generation costs, when the service says. */
	price: number | undefined;
	/** The inputs as the service gave them. */
	inputs: unknown;
	/** The same, read into fields (empty when their shape is not one of the known ones). */
	inputFields: FormatInput[];
	raw: IDataObject;
}

/**
 * The answer of GET /studio/formats, as format records: the id as `id`, `formatId` or `slug`; the
 * price as `credits`, `price`, `cost`, `creditPrice` or `creditCost`, a number or numeric text; the
 * inputs under `inputs`, `input`, `inputSchema`, `schema` or `fields`. A list (bare, under
 * `formats` or a common key), a list of ids, or a map `{ wall_of_text: {...} }`.
 */
export function normaliseFormats(response: unknown): StudioFormat[] {
	let list = unwrapList(response, ['formats']);
	if (!list && response && typeof response === 'object') {
		list = Object.entries(response as IDataObject).map(([id, value]) =>
			value && typeof value === 'object' ? { id, ...(value as IDataObject) } : { id, price: value },
		);
	}
	return ((list ?? []) as unknown[])
		.map((entry) => (typeof entry === 'string' ? { id: entry } : (entry as IDataObject)))
		.filter((entry) => entry && (entry.id ?? entry.formatId ?? entry.slug) !== undefined)
		.map((entry) => {
			const id = String(entry.id ?? entry.formatId ?? entry.slug);
			const priceValue =
				entry.credits ?? entry.price ?? entry.cost ?? entry.creditPrice ?? entry.creditCost;
			const price =
				typeof priceValue === 'number' ? priceValue : Number.parseFloat(String(priceValue));
			const inputs =
				entry.inputs ?? entry.input ?? entry.inputSchema ?? entry.schema ?? entry.fields;
			return {
				id,
				name: String(entry.name ?? entry.label ?? entry.title ?? id),
				price: Number.isFinite(price) ? price : undefined,
				inputs,
				inputFields: normaliseFormatInputs(inputs),
				raw: entry,
			};
		});
}
