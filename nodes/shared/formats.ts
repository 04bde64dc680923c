import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from './transport';
import { unwrapList } from './items';
import { normaliseFormatInputs, type FormatInput } from './formatInputs';
import { picker } from './picker';

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
 * GET /studio/formats, normalised. The record's field names are not in the spec: the id may come
 * as `id`, `formatId` or `slug`; the price as `credits`, `price`, `cost` or `creditPrice`. A map
 * `{ wall_of_text: {...} }` is read as well as a list.
 */
export async function fetchFormats(run: RunContext, itemIndex?: number): Promise<StudioFormat[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/studio/formats' }, itemIndex);
	return normaliseFormats(response);
}

export function normaliseFormats(response: unknown): StudioFormat[] {
	let list = Array.isArray(response) ? response : unwrapList(response, ['formats']);
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

/** How a format shows in dropdowns (and in the picker once chosen): "Name · 3 credits". */
export function formatLabel(format: StudioFormat): string {
	return format.price === undefined ? format.name : `${format.name} · ${creditsText(format.price)}`;
}

/** "1 credit", "3 credits". */
export function creditsText(credits: number): string {
	return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** What a format takes, for the line under it in the picker: "Needs: Prompt. Also: Seconds". */
export function formatInputsSummary(format: StudioFormat): string | undefined {
	const required = format.inputFields.filter((input) => input.required).map((input) => input.label);
	const optional = format.inputFields
		.filter((input) => !input.required)
		.map((input) => input.label);
	const parts = [
		required.length ? `Needs: ${required.join(', ')}` : '',
		optional.length ? `${required.length ? 'Also' : 'Inputs'}: ${optional.join(', ')}` : '',
	].filter(Boolean);
	return parts.length ? parts.join('. ') : undefined;
}

/** A single-format picker: from /studio/formats, or by ID. */
export function formatLocator(show: Record<string, string[]>): INodeProperties {
	return picker(
		{
			displayName: 'Format',
			name: 'format',
			description:
				"What to generate. The list shows each format's credit price and inputs; an ID comes from Studio → Get Many Formats (e.g. image_fast).",
			searchListMethod: 'searchFormats',
			placeholder: 'e.g. image_fast',
		},
		show,
	);
}
