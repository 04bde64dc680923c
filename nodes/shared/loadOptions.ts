import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { channelLabel, fetchChannels } from './channels';
import { fetchFormats, formatLabel } from './formats';
import { RunContext } from './transport';

/** The dropdowns both nodes show; the action node's own are in its methods/loadOptions.ts. */

/** Connected channels for multi-select fields: "Acme · X". */
export async function getChannels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		const channels = await fetchChannels(new RunContext(this));
		return channels
			.map((channel) => ({ name: channelLabel(channel), value: channel.id }))
			.sort((a, b) => a.name.localeCompare(b.name));
	});
}

/** Studio formats with their price, for the trigger's format filter. */
export async function getFormats(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		const formats = await fetchFormats(new RunContext(this));
		return formats.map((format) => ({ name: formatLabel(format), value: format.id }));
	});
}

/**
 * n8n's editor shows only "Error fetching options" when a list fails, not why: the reason and what
 * to do (the transport's message, e.g. a wrong Instance URL or a revoked key) become the list's one
 * entry instead.
 */
export async function orHint(
	load: () => Promise<INodePropertyOptions[]>,
): Promise<INodePropertyOptions[]> {
	try {
		return await load();
	} catch (error) {
		const { message, description } = error as { message?: string; description?: string | null };
		return [
			{
				name: `Could not load the list: ${message || 'no answer'}`,
				value: '',
				...(description ? { description } : {}),
			},
		];
	}
}
