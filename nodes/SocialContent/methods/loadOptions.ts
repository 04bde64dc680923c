import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { RunContext } from '../../shared/transport';
import { channelLabel, fetchChannels, networkName } from '../../shared/channels';
import { getChannels, orHint } from '../../shared/loadOptions';
import { mediaFileOptions } from '../../shared/media';
import { KNOWN_SETTINGS, settingsNetwork } from '../actions/post/knownSettings';

/** The trigger offers these two as well: they live with what both nodes share. */
export { getChannels, getFormats } from '../../shared/loadOptions';

/**
 * Post → Create → Text Per Channel: the channels chosen for the post, so a text cannot go to a
 * channel the post does not (all connected channels while the choice is an expression or empty).
 */
export async function getPostChannels(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		const chosen = this.getCurrentNodeParameter('channels');
		const ids = Array.isArray(chosen) ? chosen.map(String) : [];
		const options = await getChannels.call(this);
		const ofPost = options.filter((option) => ids.includes(String(option.value)));
		return ofPost.length ? ofPost : options;
	});
}

/** The media library's latest files (Post → Create → Media → From Media Library). */
export async function getMediaFiles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		return await mediaFileOptions(new RunContext(this));
	});
}

/** What a post setting can apply to: each network of the connected channels, then each channel. */
export async function getSettingTargets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		const channels = await fetchChannels(new RunContext(this));
		const networks = [
			...new Set(channels.map((channel) => channel.identifier).filter(Boolean)),
		].sort();
		return [
			...networks.map((network) => ({
				name: `All ${networkName(network)} Channels`,
				value: `network:${network}`,
			})),
			...channels.map((channel) => ({
				name: channelLabel(channel),
				value: `channel:${channel.id}`,
			})),
		];
	});
}

/**
 * Known settings of the networks the post goes to (all networks while its channels are not
 * chosen from the list), each named with its network: Post → Create → Settings → Other Setting.
 */
export async function getSettingNames(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await orHint(async () => {
		const chosen = this.getCurrentNodeParameter('channels');
		const ids = Array.isArray(chosen) ? chosen.map(String) : [];
		const channels = ids.length ? await fetchChannels(new RunContext(this)) : [];
		const networks = new Set(
			channels
				.filter((channel) => ids.includes(channel.id))
				.map((channel) => settingsNetwork(channel.identifier)),
		);
		const settings = networks.size
			? KNOWN_SETTINGS.filter((setting) => networks.has(setting.network))
			: KNOWN_SETTINGS;
		return settings.map((setting) => ({
			name: `${networkName(setting.network)}: ${setting.label}`,
			value: `${setting.network}:${setting.name}`,
			description: `${setting.name}: ${setting.description}`,
		}));
	});
}
