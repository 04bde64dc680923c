import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { RunContext } from '../transport';
import { channelLabel, fetchChannels } from '../actions/shared/channels';
import { fetchFormats, formatLabel } from '../actions/shared/formats';

/** Connected channels for multi-select fields: "Name (network)". */
export async function getChannels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const channels = await fetchChannels(new RunContext(this));
	return channels
		.map((channel) => ({ name: channelLabel(channel), value: channel.id }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Studio formats with their price, for the trigger's format filter. */
export async function getFormats(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const formats = await fetchFormats(new RunContext(this));
	return formats.map((format) => ({ name: formatLabel(format), value: format.id }));
}
