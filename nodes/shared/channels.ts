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

/** "an X", "an Instagram", "a LinkedIn": a network's name with the article people say before it. */
export function aNetwork(identifier: string): string {
	const name = networkName(identifier);
	// X is said "ex"; other names by their first letter's sound.
	return `${/^[AEIOX]/.test(name) ? 'an' : 'a'} ${name}`;
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

/** How a channel is named in a message a person or a model reads: its dropdown label and id, "Acme · X (ch_x)". */
export function channelMention(channel: Channel): string {
	return `${channelLabel(channel)} (${channel.id})`;
}

/**
 * The connected channel a value names: its id, else its exact name (any case; also as its
 * dropdown label, "Acme · X"), else a network with exactly one connected channel ("X",
 * "linkedin"). An AI agent fills channels by name as often as by id. A value that names none,
 * or several, is answered with the candidates, in the message itself: an agent's model is given
 * the message only.
 */
export function resolveChannel(
	connected: Channel[],
	given: string,
): { channel: Channel } | { problem: string } {
	const byId = connected.find((channel) => channel.id === given);
	if (byId) return { channel: byId };
	const wanted = given.trim().toLowerCase();
	const byName = connected.filter(
		(channel) =>
			channel.name.trim().toLowerCase() === wanted ||
			channelLabel(channel).toLowerCase() === wanted ||
			channelMention(channel).toLowerCase() === wanted,
	);
	const byNetwork = connected.filter(
		(channel) =>
			channel.identifier !== '' &&
			(channel.identifier.toLowerCase() === wanted ||
				networkName(channel.identifier).toLowerCase() === wanted),
	);
	const matches = byName.length ? byName : byNetwork;
	if (matches.length === 1) return { channel: matches[0] };
	const list = (channels: Channel[]) => channels.map(channelMention).join(', ');
	if (matches.length > 1)
		return {
			problem: `Channel "${given}" matches ${matches.length} connected channels: ${list(matches)}. Give one of their ids.`,
		};
	return {
		problem: connected.length
			? `Channel "${given}" is none of the connected channels: ${list(connected)}. Give a channel's id or exact name.`
			: `Channel "${given}" cannot be used: no channel is connected yet.`,
	};
}
