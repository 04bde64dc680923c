import type { INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from './transport';
import { normaliseFormats, type StudioFormat } from './shapes';
import { picker } from './picker';

/** GET /studio/formats, read as in shapes/formats.ts. */
export async function fetchFormats(run: RunContext, itemIndex?: number): Promise<StudioFormat[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/studio/formats' }, itemIndex);
	return normaliseFormats(response);
}

/** How a format shows in dropdowns (and in the picker once chosen): "Name · 3 credits". */
export function formatLabel(format: StudioFormat): string {
	return format.price === undefined ? format.name : `${format.name} · ${creditsText(format.price)}`;
}

/**
 * A format as messages name it, as the panel shows it with its id in brackets: "Image (fast)"
 * (image_fast); the id alone when no name is known. A picker's label ("Image (fast) · 1 credit")
 * gives its name.
 */
export function formatMention(format: { id: string; name?: string }): string {
	const name = format.name?.split(' · ')[0]?.trim();
	return name && name !== format.id ? `"${name}" (${format.id})` : `"${format.id}"`;
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
