import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';
import { channelsOfRun, resolveChannel } from '../../../shared/channels';
import { chosenValues } from '../../../shared/loadOptions';
import type { Channel } from '../../../shared/shapes';
import { toUtcIso } from '../../../shared/dates';
import type { MediaRef } from '../../../shared/media';
import { mediaProperty, planMedia } from './postMedia';
import {
	channelTextsProperty,
	settingsPerChannel,
	settingsProperty,
	textPerChannel,
} from './postSettings';
import { choiceHint, operationHint } from '../../../shared/hints';

const show = { resource: ['post'], operation: ['create'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		description: 'Whether to schedule the post for a date, publish it now, or save it as a draft',
		options: [
			{ name: 'Schedule', value: 'schedule', description: 'Publish at the given date' },
			{ name: 'Publish Now', value: 'now', description: 'Publish right away' },
			{ name: 'Draft', value: 'draft', description: 'Save without publishing' },
		],
		default: 'schedule',
	},
	{
		displayName: 'Date',
		name: 'date',
		type: 'dateTime',
		default: '',
		required: true,
		description: "When to publish, in the workflow's timezone unless the value says otherwise",
		displayOptions: { show: { type: ['schedule'] } },
	},
	{
		displayName: 'Date',
		name: 'date',
		type: 'dateTime',
		default: '',
		hint: 'Optional: empty means now',
		description: 'The date the draft is meant for',
		displayOptions: { show: { type: ['draft'] } },
	},
	{
		displayName: 'Channel Names or IDs',
		name: 'channels',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getChannels' },
		// Names and networks are values too (an expression, an AI agent): the editor must not mark them.
		allowArbitraryValues: true,
		default: [],
		required: true,
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'An expression (or an AI agent) may give channel IDs, exact channel names or a network with one connected channel ("X"), as an array or a comma-separated list',
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Part',
		default: { parts: [{ text: '' }] },
		description:
			'The text of the post; more parts make a thread (or comments, depending on the network)',
		options: [
			{
				displayName: 'Part',
				name: 'parts',
				values: [
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
	},
	mediaProperty,
	settingsProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Shorten Links',
				name: 'shortLink',
				type: 'boolean',
				default: false,
				description: 'Whether the service shortens the links in the text',
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'string',
				default: '',
				description:
					'Comma-separated tag names, or an expression giving an array of names or of { value, label } objects. The instance links only tags it already has; others are ignored.',
			},
			channelTextsProperty,
		],
	},
]);

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /posts: one request for all channels; one output item per channel, with its `postId`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	// Every parameter is checked before the first request, so a bad item costs no call; uploads,
	// the only other creates, come last, right before the post.
	const type = this.getNodeParameter('type', itemIndex) as string;
	const date = postDate(this, type, itemIndex);
	const texts = contentTexts(this, itemIndex);
	const media = planMedia(this, run, itemIndex);
	if (texts.length === 0 && media.length === 0) {
		throw new NodeOperationError(this.getNode(), 'The post has no text and no media', {
			itemIndex,
			description: 'Add text under Content, or attach media.',
		});
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const tags = tagsOf(options.tags);
	const channels = await chosenChannels(this, run, itemIndex);
	const settings = settingsPerChannel(
		this,
		channels,
		await channelsOfRun(run, itemIndex),
		itemIndex,
	);
	const ownTexts = textPerChannel(this, channels, itemIndex);
	const image: MediaRef[] = [];
	for (const planned of media) image.push(...(await planned.attach()));

	const body: IDataObject = {
		type,
		date,
		shortLink: Boolean(options.shortLink),
		tags,
		posts: channels.map((channel) => ({
			integration: { id: channel.id },
			value: contentParts(
				ownTexts.has(channel.id) ? [ownTexts.get(channel.id) as string, ...texts.slice(1)] : texts,
				image,
			),
			settings: settings.get(channel.id),
		})),
	};
	const response = await apiRequest(run, { method: 'POST', path: '/posts', body }, itemIndex);
	return toItems(response, ['posts']);
}

function postDate(ctx: IExecuteFunctions, type: string, itemIndex: number): string {
	const value = ctx.getNodeParameter('date', itemIndex, '') as unknown;
	if (
		type === 'now' ||
		((value === '' || value === null || value === undefined) && type === 'draft')
	)
		return new Date().toISOString();
	const date = toUtcIso(ctx, value, 'Date', itemIndex);
	// The service would refuse it or publish at once; either way not what "Schedule" means.
	if (type === 'schedule' && Date.parse(date) <= Date.now()) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"Date" is in the past (${date}; it is now ${new Date().toISOString()}): a scheduled post needs a future date`,
			{
				itemIndex,
				description: `Pick a later date, or set Type to ${choiceHint('Publish Now', 'now')} to post right away.`,
			},
		);
	}
	return date;
}

async function chosenChannels(
	ctx: IExecuteFunctions,
	run: RunContext,
	itemIndex: number,
): Promise<Channel[]> {
	const ids = chosenValues(
		ctx.getNode(),
		ctx.getNodeParameter('channels', itemIndex, []),
		'Channel Names or IDs',
		itemIndex,
	);
	if (ids.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No channel chosen', {
			itemIndex,
			description: 'Choose at least one channel in "Channel Names or IDs".',
		});
	}
	const connected = await channelsOfRun(run, itemIndex);
	const chosen = ids.map((id) => {
		const found = resolveChannel(connected, id);
		if ('problem' in found) {
			throw new NodeOperationError(ctx.getNode(), found.problem, {
				itemIndex,
				// Said once: the message names the channels and what to give (a tool's caller sees both).
				description: `A channel not listed is connected first: ${operationHint('getConnectUrl')}.`,
			});
		}
		return found.channel;
	});
	return [...new Set(chosen)].map((channel) => {
		if (!channel.identifier) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Channel "${channel.name}" has no identifier, so its network is unknown`,
				{
					itemIndex,
					description:
						'The service did not say which network this channel is on; reconnect it in the application.',
				},
			);
		}
		return channel;
	});
}

function contentTexts(ctx: IExecuteFunctions, itemIndex: number): string[] {
	return (ctx.getNodeParameter('content.parts', itemIndex, []) as Array<{ text?: string }>)
		.map((part) => String(part.text ?? ''))
		.filter((text) => text.trim() !== '');
}

/** The post's parts; the media go with the first. */
function contentParts(texts: string[], image: MediaRef[]): IDataObject[] {
	return (texts.length ? texts : ['']).map((content, index) => ({
		content,
		image: index === 0 ? image.map(({ id, path }) => ({ id, path })) : [],
	}));
}

/**
 * Tags as the service takes them (the spec leaves their shape open; the real backend refuses
 * anything but `{ value, label }` objects): a name becomes both, an object passes as it is.
 */
function tagsOf(tags: unknown): unknown[] {
	const given = Array.isArray(tags) ? (tags as unknown[]) : String(tags ?? '').split(',');
	return given.flatMap((tag) => {
		if (tag && typeof tag === 'object') return [tag];
		const name = String(tag ?? '').trim();
		return name ? [{ value: name, label: name }] : [];
	});
}
