import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { unwrapList } from '../items';

export interface StudioFormat {
	id: string;
	name: string;
	/** Credits one generation costs, when the service says. */
	price: number | undefined;
	inputs: unknown;
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
			const priceValue = entry.credits ?? entry.price ?? entry.cost ?? entry.creditPrice ?? entry.creditCost;
			const price = typeof priceValue === 'number' ? priceValue : Number.parseFloat(String(priceValue));
			return {
				id,
				name: String(entry.name ?? entry.label ?? entry.title ?? id),
				price: Number.isFinite(price) ? price : undefined,
				inputs: entry.inputs ?? entry.input,
				raw: entry,
			};
		});
}

/** How a format shows in dropdowns: "Name (N credits)". */
export function formatLabel(format: StudioFormat): string {
	return format.price === undefined ? format.name : `${format.name} (${format.price} credits)`;
}

/** A single-format picker: from /studio/formats, or by ID. */
export function formatLocator(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Format',
		name: 'format',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'What to generate; the list shows each format\'s credit price',
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchFormats', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. wall_of_text',
			},
		],
	};
}
