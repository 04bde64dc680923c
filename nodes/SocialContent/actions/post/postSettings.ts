import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { aNetwork, channelLabel, networkName } from '../../../shared/channels';
import type { Channel } from '../../../shared/shapes';
import { keyValuePairs } from '../fields/parameters';
import { KNOWN_SETTINGS, readSettingName, settingsNetwork } from './knownSettings';

/** What X requires (the spec's example) and what a post says when nobody chose. */
const X_DEFAULT_WHO_CAN_REPLY = 'everyone';

export const settingsProperty: INodeProperties = {
	displayName: 'Settings',
	name: 'settings',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Setting',
	default: {},
	description:
		'Settings for one network or one channel; each is sent only to the channels it applies to. X channels get Who Can Reply: Everyone unless set here.',
	options: [
		{
			displayName: 'X: Who Can Reply',
			name: 'xWhoCanReply',
			values: [
				{
					displayName: 'Who Can Reply',
					name: 'value',
					type: 'options',
					options: [
						{ name: 'Everyone', value: 'everyone' },
						{ name: 'Following', value: 'following' },
						{ name: 'Mentioned Users', value: 'mentionedUsers' },
						{ name: 'Subscribers', value: 'subscribers' },
						{ name: 'Verified', value: 'verified' },
					],
					default: 'everyone',
					description: 'Who may reply on X; sent to the X channels only (as who_can_reply_post)',
				},
			],
		},
		{
			displayName: 'Other Setting',
			name: 'setting',
			values: [
				{
					displayName: 'Applies To Name or ID',
					name: 'target',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getSettingTargets' },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: "A network (all the post's channels on it) or one channel. An expression may give a network such as linkedin, or a channel ID.",
				},
				{
					displayName: 'Setting Name or ID',
					name: 'name',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getSettingNames',
						loadOptionsDependsOn: ['channels', '&target'],
					},
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					// n8n reloads this list when Applies To changes only while it can work out every
					// expression of the node in the editor: reopening the panel loads it afresh.
					hint: 'The settings of the networks "Applies To" covers. If it does not follow a change of Applies To, close the node\'s panel and open it again. Another name can be typed as an expression.',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: 'Numbers, true/false and JSON values are sent as such',
				},
			],
		},
	],
};

interface SettingsParameter {
	xWhoCanReply?: Array<{ value?: string }>;
	setting?: Array<{ target?: string; name?: string; value?: string }>;
}

/**
 * Each chosen channel's `settings`: X's Who Can Reply (Everyone unless chosen) for X channels,
 * then the network's settings, then the channel's own, then `__type` (its network, required).
 * A setting for a channel that is not chosen is an error (it would be lost); a network with no
 * chosen channel is simply not used.
 */
export function settingsPerChannel(
	ctx: IExecuteFunctions,
	channels: Channel[],
	connected: Channel[],
	itemIndex: number,
): Map<string, IDataObject> {
	const given = ctx.getNodeParameter('settings', itemIndex, {}) as SettingsParameter;
	const whoCanReply = given.xWhoCanReply?.at(-1)?.value || X_DEFAULT_WHO_CAN_REPLY;
	const byNetwork = new Map<string, Array<{ name?: string; value?: string }>>();
	const byChannel = new Map<string, Array<{ name?: string; value?: string }>>();
	for (const setting of given.setting ?? []) {
		if (!String(setting.name ?? '').trim()) {
			throw new NodeOperationError(ctx.getNode(), 'A setting has no name', {
				itemIndex,
				description: "Enter the setting's name under Settings, or remove it.",
			});
		}
		const target = settingTarget(ctx, channels, connected, String(setting.target ?? ''), itemIndex);
		const { network, name } = readSettingName(String(setting.name));
		const targetNetwork =
			target.kind === 'network'
				? target.key
				: channels.find((channel) => channel.id === target.key)?.identifier;
		if (network && targetNetwork && network !== settingsNetwork(targetNetwork)) {
			// Named as its list showed it: n8n does not reload Setting Name when Applies To changes.
			const label = KNOWN_SETTINGS.find(
				(known) => known.network === network && known.name === name,
			)?.label;
			throw new NodeOperationError(
				ctx.getNode(),
				`The setting "${networkName(network)}: ${label ?? name}" is ${aNetwork(network)} setting, but its row applies to ${networkName(targetNetwork)}`,
				{
					itemIndex,
					description: `Under "Applies To" choose ${aNetwork(network)} channel or "All ${networkName(network)} Channels"; or, to keep ${networkName(targetNetwork)}, close the node's panel and open it again (its "Setting Name" list then shows ${networkName(targetNetwork)}'s settings) and choose the setting there.`,
				},
			);
		}
		const group = target.kind === 'network' ? byNetwork : byChannel;
		group.set(target.key, [...(group.get(target.key) ?? []), { name, value: setting.value }]);
	}
	return new Map(
		channels.map((channel) => [
			channel.id,
			{
				...(channel.identifier === 'x' ? { who_can_reply_post: whoCanReply } : {}),
				...keyValuePairs(byNetwork.get(channel.identifier)),
				...keyValuePairs(byChannel.get(channel.id)),
				__type: channel.identifier,
			},
		]),
	);
}

/**
 * "network:x", "channel:ch_1" (from the list), or a bare network or channel id (from an
 * expression): a bare id of a connected channel is that channel, anything else a network.
 */
function settingTarget(
	ctx: IExecuteFunctions,
	channels: Channel[],
	connected: Channel[],
	value: string,
	itemIndex: number,
): { kind: 'network' | 'channel'; key: string } {
	const text = value.trim();
	if (!text) {
		throw new NodeOperationError(ctx.getNode(), 'A setting does not say what it applies to', {
			itemIndex,
			description: 'Choose a network or a channel under "Applies To".',
		});
	}
	if (text.startsWith('network:')) return { kind: 'network', key: text.slice('network:'.length) };
	const channelId = text.startsWith('channel:') ? text.slice('channel:'.length) : text;
	if (channels.some((channel) => channel.id === channelId))
		return { kind: 'channel', key: channelId };
	if (text.startsWith('channel:') || connected.some((channel) => channel.id === channelId)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`A setting applies to channel "${channelId}", which is not among the post's channels`,
			{
				itemIndex,
				description: `The post goes to: ${channels.map(channelLabel).join(', ')}. Choose one of them, or a network, under "Applies To".`,
			},
		);
	}
	return { kind: 'network', key: text };
}

/** Options → Text Per Channel: the post's text replaced for some channels. */
export const channelTextsProperty: INodeProperties = {
	displayName: 'Text Per Channel',
	name: 'channelTexts',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Text for a Channel',
	default: {},
	description:
		"Another text for some channels (for example a shorter one for X); replaces the first part's text there",
	options: [
		{
			displayName: 'Text',
			name: 'text',
			values: [
				{
					displayName: 'Channel Name or ID',
					name: 'channel',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getPostChannels', loadOptionsDependsOn: ['channels'] },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: 'The list offers the channels chosen for the post',
				},
				{
					displayName: 'Text',
					name: 'text',
					type: 'string',
					typeOptions: { rows: 4 },
					default: '',
				},
			],
		},
	],
};

/** Channel id → its own text, checked against the post's channels. */
export function textPerChannel(
	ctx: IExecuteFunctions,
	channels: Channel[],
	itemIndex: number,
): Map<string, string> {
	const entries = ctx.getNodeParameter('options.channelTexts.text', itemIndex, []) as Array<{
		channel?: string;
		text?: string;
	}>;
	const texts = new Map<string, string>();
	for (const entry of entries) {
		const id = String(entry.channel ?? '').trim();
		if (!id) {
			throw new NodeOperationError(
				ctx.getNode(),
				'A text under "Text Per Channel" has no channel chosen',
				{
					itemIndex,
					description: `Choose its channel (the post goes to: ${channels.map(channelLabel).join(', ')}), or remove the text.`,
				},
			);
		}
		if (!channels.some((channel) => channel.id === id)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`"Text Per Channel" names channel "${id}", which is not among the post's channels`,
				{
					itemIndex,
					description: `The post goes to: ${channels.map(channelLabel).join(', ')}. Choose one of them.`,
				},
			);
		}
		texts.set(id, String(entry.text ?? ''));
	}
	return texts;
}
