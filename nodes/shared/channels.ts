import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from './transport';
import { CHANNEL_LIST_KEYS, toChannel, unwrapList, type Channel } from './shapes';
import { picker } from './picker';

/** GET /integrations, as channels with id, name and identifier (the network, e.g. `x`). */
export async function fetchChannels(run: RunContext, itemIndex?: number): Promise<Channel[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/integrations' }, itemIndex);
	const list = unwrapList(response, CHANNEL_LIST_KEYS) ?? [];
	return (list as IDataObject[])
		.filter((entry) => entry && typeof entry === 'object' && entry.id !== undefined)
		.map(toChannel);
}

/** How a channel shows in dropdowns: "Acme · X". */
export function channelLabel(channel: Channel): string {
	return channel.identifier ? `${channel.name} · ${networkName(channel.identifier)}` : channel.name;
}

const NETWORK_NAMES: Record<string, string> = {
	x: 'X',
	linkedin: 'LinkedIn',
	'linkedin-page': 'LinkedIn Page',
	instagram: 'Instagram',
	'instagram-standalone': 'Instagram',
	facebook: 'Facebook',
	threads: 'Threads',
	tiktok: 'TikTok',
	youtube: 'YouTube',
	bluesky: 'Bluesky',
	mastodon: 'Mastodon',
	pinterest: 'Pinterest',
	reddit: 'Reddit',
};

/** A network's name as people write it: "x" → "X", "linkedin" → "LinkedIn"; others capitalised. */
export function networkName(identifier: string): string {
	return NETWORK_NAMES[identifier] ?? identifier.charAt(0).toUpperCase() + identifier.slice(1);
}

/** The connected channels, read once per run however many items need them. */
export async function channelsOfRun(run: RunContext, itemIndex: number): Promise<Channel[]> {
	return await run.once('channels', async () => await fetchChannels(run, itemIndex));
}

/** A single-channel picker: from the connected channels, or by ID. */
export function channelLocator(
	show: Record<string, string[]>,
	description: string,
): INodeProperties {
	return picker(
		{
			displayName: 'Channel',
			name: 'channel',
			description: `${description}. The list shows the connected channels; an ID comes from Channel → Get Many (id).`,
			searchListMethod: 'searchChannels',
			placeholder: 'e.g. clx2k9j0a0001',
		},
		show,
	);
}
