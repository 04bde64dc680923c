import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { unwrapList } from '../items';

export interface Channel {
	id: string;
	name: string;
	identifier: string;
	raw: IDataObject;
}

/** GET /integrations, as channels with id, name and identifier (the network, e.g. `x`). */
export async function fetchChannels(run: RunContext, itemIndex?: number): Promise<Channel[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/integrations' }, itemIndex);
	const list = Array.isArray(response) ? response : (unwrapList(response, ['integrations', 'channels']) ?? []);
	return (list as IDataObject[])
		.filter((entry) => entry && typeof entry === 'object' && entry.id !== undefined)
		.map((entry) => ({
			id: String(entry.id),
			name: String(entry.name ?? entry.id),
			identifier: String(entry.identifier ?? entry.providerIdentifier ?? ''),
			raw: entry,
		}));
}

/** How a channel shows in dropdowns: "Name (network)". */
export function channelLabel(channel: Channel): string {
	return channel.identifier ? `${channel.name} (${channel.identifier})` : channel.name;
}

/** The connected channels, read once per run however many items need them. */
export async function channelsOfRun(run: RunContext, itemIndex: number): Promise<Channel[]> {
	return await run.once('channels', async () => await fetchChannels(run, itemIndex));
}

/** A single-channel picker: from the connected channels, or by ID. */
export function channelLocator(show: Record<string, string[]>, description: string): INodeProperties {
	return {
		displayName: 'Channel',
		name: 'channel',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchChannels', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. clx2k9j0a0001',
			},
		],
	};
}
