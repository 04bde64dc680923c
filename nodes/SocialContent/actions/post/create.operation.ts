import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { toItems } from '../items';
import { channelsOfRun, type Channel } from '../shared/channels';
import { toUtcIso } from '../shared/dates';
import { jsonObject, keyValuePairs } from '../shared/parameters';

const show = { resource: ['post'], operation: ['create'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
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
		description: 'When to publish, in the workflow\'s timezone unless the value says otherwise',
		displayOptions: { show: { type: ['schedule'] } },
	},
	{
		displayName: 'Date',
		name: 'date',
		type: 'dateTime',
		default: '',
		description: 'Optional; empty means now',
		displayOptions: { show: { type: ['now', 'draft'] } },
	},
	{
		displayName: 'Channel Names or IDs',
		name: 'channels',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getChannels' },
		default: [],
		required: true,
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'An expression may give an array of channel IDs or a comma-separated list',
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Part',
		default: { parts: [{ text: '' }] },
		description: 'The text of the post; more parts make a thread (or comments, depending on the network)',
		options: [
			{
				displayName: 'Part',
				name: 'parts',
				values: [
					{ displayName: 'Text', name: 'text', type: 'string', typeOptions: { rows: 4 }, default: '' },
				],
			},
		],
	},
	{
		displayName: 'Media',
		name: 'media',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Media',
		default: {},
		description: 'Files attached to the first part: the ID and path returned by Media → Upload or Import From URL',
		options: [
			{
				displayName: 'File',
				name: 'files',
				values: [
					{ displayName: 'ID', name: 'id', type: 'string', default: '', placeholder: 'e.g. the ID from Media → Upload' },
					{ displayName: 'Path', name: 'path', type: 'string', default: '', placeholder: 'e.g. the path from Media → Upload' },
				],
			},
		],
	},
	{
		displayName: 'Settings',
		name: 'settings',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		description: 'Per-network settings. Each channel also gets its network as __type, automatically.',
		options: [
			{
				displayName: 'X: Who Can Reply',
				name: 'who_can_reply_post',
				type: 'options',
				options: [
					{ name: 'Everyone', value: 'everyone' },
					{ name: 'Following', value: 'following' },
					{ name: 'Mentioned Users', value: 'mentionedUsers' },
					{ name: 'Subscribers', value: 'subscribers' },
					{ name: 'Verified', value: 'verified' },
				],
				default: 'everyone',
				description: 'Who may reply; sent to X channels only',
			},
			{
				displayName: 'Other Settings',
				name: 'other',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Setting',
				options: [
					{
						displayName: 'Setting',
						name: 'setting',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Settings (JSON)',
				name: 'json',
				type: 'json',
				default: '',
				description: 'Further settings as a JSON object, merged last',
			},
		],
	},
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
				description: 'Comma-separated tags, or an expression giving an array (sent as is)',
			},
		],
	},
]);

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /posts: one request for all channels; one output item per channel, with its `postId`. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	// Every parameter is checked before the first request, so a bad item costs no call.
	const type = this.getNodeParameter('type', itemIndex) as string;
	const date = postDate(this, type, itemIndex);
	const value = contentParts(this, itemIndex);
	const settings = channelSettings(this, itemIndex);
	const whoCanReply = (this.getNodeParameter('settings', itemIndex, {}) as IDataObject).who_can_reply_post;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const channels = await chosenChannels(this, run, itemIndex);

	const body: IDataObject = {
		type,
		date,
		shortLink: Boolean(options.shortLink),
		tags: tagsOf(options.tags),
		posts: channels.map((channel) => ({
			integration: { id: channel.id },
			value,
			settings: {
				...(channel.identifier === 'x' && whoCanReply ? { who_can_reply_post: whoCanReply } : {}),
				...settings,
				__type: channel.identifier,
			},
		})),
	};
	const response = await apiRequest(run, { method: 'POST', path: '/posts', body }, itemIndex);
	return toItems(response, ['posts']);
}

function postDate(ctx: IExecuteFunctions, type: string, itemIndex: number): string {
	const value = ctx.getNodeParameter('date', itemIndex, '') as unknown;
	if ((value === '' || value === null || value === undefined) && type !== 'schedule') return new Date().toISOString();
	return toUtcIso(ctx, value, 'Date', itemIndex);
}

async function chosenChannels(ctx: IExecuteFunctions, run: RunContext, itemIndex: number): Promise<Channel[]> {
	const raw = ctx.getNodeParameter('channels', itemIndex, []) as unknown;
	const ids = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((id) => String(id).trim())
		.filter(Boolean);
	if (ids.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No channel chosen', {
			itemIndex,
			description: 'Choose at least one channel in "Channel Names or IDs".',
		});
	}
	const connected = await channelsOfRun(run, itemIndex);
	return [...new Set(ids)].map((id) => {
		const channel = connected.find((entry) => entry.id === id);
		if (!channel) {
			const known = connected.map((entry) => `${entry.name} (${entry.id})`).join(', ') || 'none';
			throw new NodeOperationError(ctx.getNode(), `Channel "${id}" is not connected`, {
				itemIndex,
				description: `Connected channels: ${known}. Pick one from the list, or connect it first (Channel → Get Connect URL).`,
			});
		}
		if (!channel.identifier) {
			throw new NodeOperationError(ctx.getNode(), `Channel "${channel.name}" has no identifier, so its network is unknown`, {
				itemIndex,
				description: 'The service did not say which network this channel is on; reconnect it in the application.',
			});
		}
		return channel;
	});
}

function contentParts(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const parts = (ctx.getNodeParameter('content.parts', itemIndex, []) as Array<{ text?: string }>)
		.map((part) => String(part.text ?? ''))
		.filter((text) => text.trim() !== '');
	const files = (ctx.getNodeParameter('media.files', itemIndex, []) as Array<{ id?: string; path?: string }>).filter(
		(file) => file.id || file.path,
	);
	for (const file of files) {
		if (!file.id || !file.path) {
			throw new NodeOperationError(ctx.getNode(), 'Each media file needs both an ID and a path', {
				itemIndex,
				description: 'Use the id and path returned by Media → Upload or Import From URL, e.g. {{ $json.id }} and {{ $json.path }}.',
			});
		}
	}
	if (parts.length === 0 && files.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'The post has no text and no media', {
			itemIndex,
			description: 'Add text under Content, or attach media.',
		});
	}
	const texts = parts.length ? parts : [''];
	return texts.map((content, index) => ({
		content,
		image: index === 0 ? files.map(({ id, path }) => ({ id, path })) : [],
	}));
}

function channelSettings(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const chosen = ctx.getNodeParameter('settings', itemIndex, {}) as IDataObject;
	const settings: IDataObject = {};
	const other = (chosen.other as { setting?: Array<{ name: string; value: string }> } | undefined)?.setting;
	Object.assign(settings, keyValuePairs(other));
	Object.assign(settings, jsonObject(ctx, 'settings.json', 'Settings (JSON)', itemIndex));
	return settings;
}

function tagsOf(tags: unknown): unknown[] {
	if (Array.isArray(tags)) return tags;
	return String(tags ?? '')
		.split(',')
		.map((tag) => tag.trim())
		.filter(Boolean);
}
