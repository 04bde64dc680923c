import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RunContext } from '../../shared/transport';
import { fetchFormats, formatMention } from '../../shared/formats';
import { listLabel } from '../actions/fields/listInputs';
import { channelLabel, fetchChannels, networkName } from '../../shared/channels';
import { getChannels, orReason } from '../../shared/loadOptions';
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
	return await orReason(this, async () => {
		const chosen = this.getCurrentNodeParameter('channels');
		const ids = Array.isArray(chosen) ? chosen.map(String) : [];
		const options = await getChannels.call(this);
		const ofPost = options.filter((option) => ids.includes(String(option.value)));
		return [NOTHING_CHOSEN.channel, ...(ofPost.length ? ofPost : options)];
	});
}

/** The media library's latest files (Post → Create → Media → From Media Library). */
export async function getMediaFiles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		const files = await mediaFileOptions(new RunContext(this));
		return files.length
			? [NOTHING_CHOSEN.mediaFile, ...files]
			: [
					{
						name: 'The Media Library Is Empty',
						value: '',
						description: 'Upload a file with Media → Upload, or attach one another way',
					},
				];
	});
}

/**
 * A new row's value (''), offered first so the row is not marked wrong ("The value "" is not
 * supported!") before the user chooses; left so, the run refuses it saying what to choose.
 */
const NOTHING_CHOSEN = {
	target: { name: 'Choose a Network or Channel', value: '' },
	setting: { name: 'Choose a Setting', value: '' },
	channel: { name: 'Choose a Channel', value: '' },
	mediaFile: { name: 'Choose a Media File', value: '' },
	listInput: {
		name: 'Choose a Format First',
		value: '',
		description: 'Pick the format above: the inputs of it that take a list appear here',
	},
	listOfExpression: {
		name: 'Give the Input by Expression (the Format Is One)',
		value: '',
		description:
			"The format is an expression, so its lists are not known here: give the input's ID (e.g. captions) as an expression",
	},
};

/** What a post setting can apply to: each network of the connected channels, then each channel. */
export async function getSettingTargets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		const channels = await fetchChannels(new RunContext(this));
		const networks = [
			...new Set(channels.map((channel) => channel.identifier).filter(Boolean)),
		].sort();
		return [
			NOTHING_CHOSEN.target,
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
 * Known settings of the networks the row's Applies To covers, or the post's networks while it is
 * empty (all networks while neither is chosen from a list), each named with its network:
 * Post → Create → Settings → Other Setting.
 */
export async function getSettingNames(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		const networks = await settingNetworks(this);
		const settings = networks.size
			? KNOWN_SETTINGS.filter((setting) => networks.has(setting.network))
			: KNOWN_SETTINGS;
		return [
			NOTHING_CHOSEN.setting,
			...settings.map((setting) => ({
				name: `${networkName(setting.network)}: ${setting.label}`,
				value: `${setting.network}:${setting.name}`,
				description: `${setting.name}: ${setting.description}`,
			})),
		];
	});
}

/**
 * The networks whose settings a setting row may take: the network or channel its Applies To
 * names (a sibling in the same row, `&target`), else those of the post's chosen channels; none
 * (every network) while neither says.
 */
async function settingNetworks(ctx: ILoadOptionsFunctions): Promise<Set<string>> {
	const target = String(ctx.getCurrentNodeParameter('&target') ?? '');
	if (target.startsWith('network:')) return new Set([settingsNetwork(target.slice(8))]);
	const chosen = ctx.getCurrentNodeParameter('channels');
	const ids = target.startsWith('channel:')
		? [target.slice(8)]
		: Array.isArray(chosen)
			? chosen.map(String)
			: [];
	const channels = ids.length ? await fetchChannels(new RunContext(ctx)) : [];
	return new Set(
		channels
			.filter((channel) => ids.includes(channel.id))
			.map((channel) => settingsNetwork(channel.identifier)),
	);
}

/**
 * Start Generation → List Inputs → Input: the chosen format's inputs that take a list. A new row's
 * value ('') is always one of them, so it is never marked wrong before the user acts: the format's
 * only list (the run takes '' for it), "Choose a list input" among several, a word that the
 * format takes none, or, with no format chosen yet, to choose one first.
 */
export async function getListInputs(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		// The picker's value as the editor sends it: { mode, value } (an id typed or picked).
		const picked = this.getCurrentNodeParameter('format') as
			| { value?: unknown }
			| string
			| undefined;
		const formatId = String(
			(typeof picked === 'object' && picked !== null ? picked.value : picked) ?? '',
		).trim();
		if (!formatId) return [NOTHING_CHOSEN.listInput];
		// An expression the editor could not work out (it reads the input item): no format to ask.
		if (formatId.startsWith('=')) return [NOTHING_CHOSEN.listOfExpression];
		const format = (await fetchFormats(new RunContext(this))).find(
			(entry) => entry.id === formatId,
		);
		if (!format) {
			throw new NodeOperationError(
				this.getNode(),
				`No format "${formatId}" on this instance: choose one from the list`,
			);
		}
		const lists = format.inputFields.filter((input) => input.type === 'array');
		const described = (input: (typeof lists)[number]) =>
			input.description ? { description: input.description } : {};
		if (lists.length === 0)
			return [
				{
					name: 'No List in This Format: Remove This Entry',
					value: '',
					description: `Format ${formatMention(format)} takes no list: fill its inputs under Format Inputs`,
				},
			];
		if (lists.length === 1)
			return [{ name: listLabel(lists[0]), value: '', ...described(lists[0]) }];
		return [
			{ name: 'Choose a List Input', value: '', description: 'This format takes several lists' },
			...lists.map((input) => ({ name: listLabel(input), value: input.name, ...described(input) })),
		];
	});
}
