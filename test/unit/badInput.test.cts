/**
 * Bad input, one row per case: the parameters, and the error the user must see. Every case must
 * fail its item with a NodeOperationError (bad parameter) or NodeApiError (the service refused),
 * carrying the item's index and a message that says what to fix. Add rows freely.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { resources } from '../../nodes/SocialContent/actions/router';
import {
	API_KEY,
	API_PATH,
	api,
	formatInputs,
	runAction,
	startGeneration,
} from '../helpers/fixtures.cjs';

const CHANNELS = [
	{ id: 'ch_x', name: 'X', identifier: 'x' },
	{ id: 'ch_li', name: 'LinkedIn', identifier: 'linkedin' },
	{ id: 'ch_odd', name: 'Odd', identifier: '' },
];
const channels = () => api().get(`${API_PATH}/integrations`).reply(200, CHANNELS);
const formats = () =>
	api()
		.get(`${API_PATH}/studio/formats`)
		.reply(200, [{ id: 'slideshow', credits: 10 }, { id: 'free_form' }]);
/** The service refusing a start with this status and body; the format list served after. */
const startRefused = (status: number, body: IDataObject) => () => {
	api().post(`${API_PATH}/studio/generations`).reply(status, body);
	formats();
};
const id = (value: string) => ({ __rl: true, mode: 'id', value });
const post = (extra: IDataObject) => ({
	resource: 'post',
	operation: 'create',
	type: 'now',
	channels: ['ch_x'],
	content: { parts: [{ text: 'Hi' }] },
	...extra,
});
const start = (extra: IDataObject) =>
	startGeneration('slideshow', { hook: 'x' }, extra as INodeParameters);

type Case = [
	name: string,
	parameters: IDataObject,
	message: string | RegExp,
	kind: 'NodeOperationError' | 'NodeApiError',
	setup?: () => unknown,
	credentials?: ICredentialDataDecryptedObject,
	items?: IDataObject[],
];

const CASES: Case[] = [
	// Hook → Score
	[
		'score: text of spaces',
		{ resource: 'hook', operation: 'score', text: '   ' },
		'"Text" is empty',
		'NodeOperationError',
	],
	[
		'score: text expression gives nothing',
		{ resource: 'hook', operation: 'score', text: '={{ $json.nothing }}' },
		'"Text" is empty',
		'NodeOperationError',
	],
	[
		'score: text expression gives an empty string',
		{ resource: 'hook', operation: 'score', text: '={{ "" }}' },
		'"Text" is empty',
		'NodeOperationError',
	],
	[
		'score: the service rejects the platform',
		{
			resource: 'hook',
			operation: 'score',
			text: 'x',
			platform: 'custom',
			customPlatform: 'myspace',
		},
		'The service rejected the request: platform: unknown platform',
		'NodeApiError',
		() =>
			api()
				.post(`${API_PATH}/hooks/score`)
				.reply(400, { errors: [{ field: 'platform', message: 'unknown platform' }] }),
	],
	[
		'score: Custom platform left empty',
		{ resource: 'hook', operation: 'score', text: 'x', platform: 'custom', customPlatform: ' ' },
		'"Custom Platform" is empty',
		'NodeOperationError',
	],
	[
		'generate: Custom platform from an expression that gives nothing (left empty, n8n itself refuses to run)',
		{
			resource: 'hook',
			operation: 'generate',
			platform: 'custom',
			customPlatform: '={{ $json.nothing }}',
		},
		'"Custom Platform" is empty',
		'NodeOperationError',
	],
	// Hook → Generate
	[
		'generate: negative count',
		{ resource: 'hook', operation: 'generate', count: -1 },
		'"Count" must be a whole number of 0 or more, not -1',
		'NodeOperationError',
	],
	[
		'generate: fractional count',
		{ resource: 'hook', operation: 'generate', count: 2.5 },
		'"Count" must be a whole number of 0 or more, not 2.5',
		'NodeOperationError',
	],
	[
		'generate: count that is not a number',
		{ resource: 'hook', operation: 'generate', count: '={{ "three" }}' },
		'"Count" must be a whole number of 0 or more, not "three"',
		'NodeOperationError',
	],
	[
		'generate: huge count the service refuses',
		{ resource: 'hook', operation: 'generate', count: 1000000 },
		'The service rejected the request: count: must be between 1 and 20',
		'NodeApiError',
		() =>
			api()
				.post(`${API_PATH}/hooks/generate`)
				.reply(400, { errors: { count: 'must be between 1 and 20' } }),
	],
	// Studio
	[
		'start: format expression gives nothing',
		start({ format: id('={{ $json.nothing }}') }),
		'No format chosen',
		'NodeOperationError',
	],
	[
		'start: unknown format with Max Credits',
		start({ format: id('nope'), options: { maxCredits: 5 } }),
		'Unknown format "nope"; the formats are: "slideshow", "free_form"',
		'NodeOperationError',
		formats,
	],
	[
		'start: unknown format, the service refuses: the formats that exist are named (#50)',
		start({ format: id('carousel') }),
		'There is no format "carousel" on this instance: send one of slideshow, free_form.',
		'NodeOperationError',
		startRefused(400, { errors: [{ field: 'formatId', message: 'unknown format' }] }),
	],
	[
		'start: unknown format refused with a 404 "Format not found": the formats are named (#68)',
		start({ format: id('carousel') }),
		'There is no format "carousel" on this instance: send one of slideshow, free_form.',
		'NodeOperationError',
		startRefused(404, { msg: 'Format not found' }),
	],
	[
		'start: unknown format refused with a 400 that does not say "format": the formats are named (#68)',
		start({ format: id('carousel') }),
		'There is no format "carousel" on this instance: send one of slideshow, free_form.',
		'NodeOperationError',
		startRefused(400, { message: ['invalid id'], error: 'Bad Request', statusCode: 400 }),
	],
	[
		'start: the service refuses something else than the format: its own words, at once',
		start({ format: id('slideshow') }),
		'The service rejected the request: input: too long',
		'NodeApiError',
		() =>
			api()
				.post(`${API_PATH}/studio/generations`)
				.reply(400, { errors: [{ field: 'input', message: 'too long' }] }),
	],
	[
		'start: malformed Inputs (JSON)',
		start({ inputMode: 'json', inputJson: '{"hook": ' }),
		'"Inputs (JSON)" is not valid JSON',
		'NodeOperationError',
	],
	[
		'start: Inputs (JSON) is an array',
		start({ inputMode: 'json', inputJson: '[1, 2]' }),
		'"Inputs (JSON)" must be a JSON object',
		'NodeOperationError',
	],
	[
		'start: Inputs (JSON) is a string',
		start({ inputMode: 'json', inputJson: '"hook"' }),
		'"Inputs (JSON)" must be a JSON object',
		'NodeOperationError',
	],
	[
		'start: a required input left empty',
		start({ inputs: formatInputs({ hook: '' }, [{ id: 'hook', required: true }]) }),
		'Format "slideshow" needs "hook"',
		'NodeOperationError',
	],
	[
		'start: a required input missing from the item (map automatically)',
		start({
			inputs: {
				...formatInputs({}, [{ id: 'hook', required: true }]),
				mappingMode: 'autoMapInputData',
			},
		}),
		'Format "slideshow" needs "hook"',
		'NodeOperationError',
	],
	[
		'start: a required input whose expression gives nothing, named by its label',
		start({
			inputs: formatInputs({ prompt: '={{ $json.nothing }}' }, [
				{ id: 'prompt', displayName: 'Prompt', required: true, type: 'string' },
			]),
		}),
		'Format "slideshow" needs "Prompt"',
		'NodeOperationError',
	],
	[
		'start: a number input that is not a number',
		start({
			inputs: formatInputs({ hook: 'x', slides: '={{ "many" }}' }, [
				{ id: 'hook' },
				{ id: 'slides', type: 'number' },
			]),
		}),
		/^Invalid input for "slides"/,
		'NodeOperationError',
	],
	[
		'start: price above Max Credits',
		start({ options: { maxCredits: 5 } }),
		'Format "slideshow" costs 10 credits, more than Max Credits (5)',
		'NodeOperationError',
		formats,
	],
	[
		'start: no price known with Max Credits',
		start({ format: id('free_form'), options: { maxCredits: 5 } }),
		'The service gives no price for format "free_form", so Max Credits cannot be checked',
		'NodeOperationError',
		formats,
	],
	[
		'start: not enough credits',
		start({}),
		'Not enough credits for this request. Nothing was reserved or charged',
		'NodeApiError',
		() => api().post(`${API_PATH}/studio/generations`).reply(402, {}),
	],
	[
		'get generation: empty id',
		{ resource: 'studio', operation: 'getGeneration', generationId: id('={{ "" }}') },
		'No generation chosen',
		'NodeOperationError',
	],
	[
		'get generation: id of spaces',
		{ resource: 'studio', operation: 'getGeneration', generationId: id('   ') },
		'No generation chosen',
		'NodeOperationError',
	],
	[
		'get generation: an id the instance answers 500 for',
		{ resource: 'studio', operation: 'getGeneration', generationId: id('gen_other') },
		'The service failed on generation "gen_other" (500): it may not exist, or not be yours (Internal server error)',
		'NodeApiError',
		() =>
			api()
				.get(`${API_PATH}/studio/generations/gen_other`)
				.times(3)
				.reply(500, { statusCode: 500, message: 'Internal server error' }),
	],
	[
		'get generation: unknown id',
		{ resource: 'studio', operation: 'getGeneration', generationId: id('gen_nope') },
		'Not found: GET /studio/generations/gen_nope (404)',
		'NodeApiError',
		() => api().get(`${API_PATH}/studio/generations/gen_nope`).reply(404, {}),
	],
	[
		'list generations: a status no list has, refused before sending',
		{
			resource: 'studio',
			operation: 'listGenerations',
			status: '={{ "finished" }}',
			returnAll: true,
		},
		'Status cannot be "finished": send one of "" (Any), done (Done), failed (Failed), queued (Queued), running (Running).',
		'NodeOperationError',
	],
	// Channel
	[
		'connect URL: empty custom provider',
		{ resource: 'channel', operation: 'getConnectUrl', provider: 'custom', customProvider: ' ' },
		'"Custom Provider" is empty',
		'NodeOperationError',
	],
	[
		'disconnect: channel expression gives nothing',
		{ resource: 'channel', operation: 'disconnect', channel: id('={{ $json.nothing }}') },
		'No channel chosen',
		'NodeOperationError',
	],
	[
		'disconnect: unknown channel',
		{ resource: 'channel', operation: 'disconnect', channel: id('ch_gone') },
		'Not found: DELETE /integrations/ch_gone (404)',
		'NodeApiError',
		() => api().delete(`${API_PATH}/integrations/ch_gone`).reply(404, {}),
	],
	[
		'analytics: channel expression gives nothing',
		{ resource: 'channel', operation: 'getAnalytics', channel: id('={{ "" }}') },
		'No channel chosen',
		'NodeOperationError',
	],
	[
		'analytics: a period of 0 days',
		{ resource: 'channel', operation: 'getAnalytics', channel: id('ch_x'), periodDays: 0 },
		'"Period (Days)" must be a whole number of days, 1 or more (got 0)',
		'NodeOperationError',
	],
	[
		'analytics: the service refuses the period',
		{ resource: 'channel', operation: 'getAnalytics', channel: id('ch_x'), periodDays: 400 },
		'The service rejected the request: date must be at most 365 days',
		'NodeApiError',
		() =>
			api()
				.get(`${API_PATH}/analytics/ch_x`)
				.query(true)
				.reply(400, { msg: 'date must be at most 365 days' }),
	],
	[
		'post analytics: empty post id',
		{ resource: 'channel', operation: 'getPostAnalytics', postId: id('={{ "" }}') },
		'No post chosen',
		'NodeOperationError',
	],
	[
		'post analytics: a period that is not a whole number',
		{ resource: 'channel', operation: 'getPostAnalytics', postId: id('p_1'), periodDays: 1.5 },
		'"Period (Days)" must be a whole number of days, 1 or more (got 1.5)',
		'NodeOperationError',
	],
	// Media
	[
		'upload: no binary data at all',
		{ resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
		'The input item has no binary field "data"',
		'NodeOperationError',
	],
	[
		'upload: another binary field name',
		{ resource: 'media', operation: 'upload', binaryPropertyName: 'photo' },
		'The input item has no binary field "photo"',
		'NodeOperationError',
	],
	[
		'import: ftp URL',
		{ resource: 'media', operation: 'importFromUrl', url: 'ftp://example.com/a.png' },
		'"URL" must be an http or https address, not "ftp://example.com/a.png"',
		'NodeOperationError',
	],
	[
		'import: file URL',
		{ resource: 'media', operation: 'importFromUrl', url: 'file:///etc/passwd' },
		'"URL" must be an http or https address, not "file:///etc/passwd"',
		'NodeOperationError',
	],
	[
		'import: javascript URL',
		{ resource: 'media', operation: 'importFromUrl', url: 'javascript:alert(1)' },
		'"URL" must be an http or https address, not "javascript:alert(1)"',
		'NodeOperationError',
	],
	[
		'import: not a URL',
		{ resource: 'media', operation: 'importFromUrl', url: 'picture.png' },
		'"URL" must be an http or https address, not "picture.png"',
		'NodeOperationError',
	],
	[
		'import: missing colon',
		{ resource: 'media', operation: 'importFromUrl', url: 'http//example.com/a.png' },
		'"URL" must be an http or https address, not "http//example.com/a.png"',
		'NodeOperationError',
	],
	[
		'import: empty URL',
		{ resource: 'media', operation: 'importFromUrl', url: '={{ "" }}' },
		'"URL" is empty',
		'NodeOperationError',
	],
	[
		'import: a private address, refused before sending',
		{ resource: 'media', operation: 'importFromUrl', url: 'http://10.0.0.1/a.png' },
		'"URL" is not a public address: it points to a private address (10.0.0.1)',
		'NodeOperationError',
	],
	[
		'import: a host name the service refuses',
		{ resource: 'media', operation: 'importFromUrl', url: 'http://intranet.example/a.png' },
		'The service rejected the request: url: must be a public http or https URL',
		'NodeApiError',
		() =>
			api()
				.post(`${API_PATH}/upload-from-url`)
				.reply(400, { errors: [{ field: 'url', message: 'must be a public http or https URL' }] }),
	],
	// Post → Create
	[
		'create: channels expression gives nothing',
		post({ channels: '={{ "" }}' }),
		'No channel chosen',
		'NodeOperationError',
	],
	[
		'create: unknown channel',
		post({ channels: ['ch_gone'] }),
		'Channel "ch_gone" is none of the connected channels: X · X (ch_x), LinkedIn · LinkedIn (ch_li), Odd (ch_odd). Give a channel\'s id or exact name.',
		'NodeOperationError',
		channels,
	],
	[
		'create: channel id given as a number',
		post({ channels: '={{ 42 }}' }),
		'Channel "42" is none of the connected channels: X · X (ch_x), LinkedIn · LinkedIn (ch_li), Odd (ch_odd). Give a channel\'s id or exact name.',
		'NodeOperationError',
		channels,
	],
	[
		'create: channel without an identifier',
		post({ channels: ['ch_odd'] }),
		'Channel "Odd" has no identifier, so its network is unknown',
		'NodeOperationError',
		channels,
	],
	[
		'post create: a Type no list has (a model sending "later"), refused before sending',
		post({ type: '={{ "later" }}', date: '2026-12-01T10:00:00Z' }),
		'Type cannot be "later": send one of schedule (Schedule), now (Publish Now), draft (Draft).',
		'NodeOperationError',
	],
	[
		"post create: a closed choice inside Settings (X's Who Can Reply: nobody), refused before sending (#68)",
		post({ settings: { xWhoCanReply: [{ value: '={{ "nobody" }}' }] } }),
		'X: Who Can Reply cannot be "nobody": send one of everyone (Everyone), following (Following), mentionedUsers (Mentioned Users), subscribers (Subscribers), verified (Verified).',
		'NodeOperationError',
	],
	[
		'score: a platform no list has, by an expression, refused naming the ones to send',
		{
			resource: 'hook',
			operation: 'score',
			text: 'x',
			platform: '={{ "myspace" }}',
			customPlatform: 'x',
		},
		/^Platform cannot be "myspace": send one of .*tiktok \(TikTok\).*custom \(Custom\)/,
		'NodeOperationError',
	],
	[
		'create: words for a date',
		post({ type: 'schedule', date: '={{ "next tuesday" }}' }),
		'"Date" is not a valid date: "next tuesday". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'create: month 13',
		post({ type: 'schedule', date: '={{ "2026-13-01T10:00:00" }}' }),
		'"Date" is not a valid date: "2026-13-01T10:00:00". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'create: 30 February',
		post({ type: 'schedule', date: '={{ "2026-02-30" }}' }),
		'"Date" is not a valid date: "2026-02-30". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'create: schedule without a date',
		post({ type: 'schedule', date: '={{ "" }}' }),
		'"Date" is not a valid date: "". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'create: schedule in the past',
		post({ type: 'schedule', date: '2021-06-01T10:00:00Z' }),
		/^"Date" is in the past \(2021-06-01T10:00:00\.000Z; it is now 20\d\d-\d\d-\d\dT[\d:.]+Z\): a scheduled post needs a future date$/,
		'NodeOperationError',
	],
	[
		'create: no text and no media',
		post({ content: { parts: [{ text: ' ' }] } }),
		'The post has no text and no media',
		'NodeOperationError',
	],
	[
		'create: media by ID and path without a path',
		post({ media: { files: [{ source: 'idPath', id: 'med_1', path: '' }] } }),
		'Media file 1 needs both an ID and a path (got ID "med_1" and no path)',
		'NodeOperationError',
	],
	[
		'create: media by ID and path without an id',
		post({ media: { files: [{ source: 'idPath', id: '', path: '/uploads/a.png' }] } }),
		'Media file 1 needs both an ID and a path (got no ID and path "/uploads/a.png")',
		'NodeOperationError',
	],
	[
		'create: media from a binary field the item lacks',
		post({ media: { files: [{ source: 'binary', binaryPropertyName: 'photo' }] } }),
		'The input item has no binary field "photo"',
		'NodeOperationError',
	],
	[
		'create: outputs of a generation, but the item is none',
		post({ media: { files: [{ source: 'generation' }] } }),
		'Media file 1: the input item is not a finished generation with outputs',
		'NodeOperationError',
	],
	[
		'create: an output without a media id',
		post({ media: { files: [{ source: 'generation' }] } }),
		'Media file 1: output 1 needs both an ID and a path (got no ID and path "https://cdn.example.net/a.png")',
		'NodeOperationError',
		undefined,
		undefined,
		[{ id: 'gen_1', status: 'done', outputs: ['https://cdn.example.net/a.png'] }],
	],
	[
		'create: media library, no file chosen',
		post({ media: { files: [{ source: 'library', mediaId: '' }] } }),
		'Media file 1: no media file chosen',
		'NodeOperationError',
	],
	[
		'create: media library, a file that is not there',
		post({ media: { files: [{ source: 'library', mediaId: 'med_gone' }] } }),
		'Media file "med_gone" is not in the media library',
		'NodeOperationError',
		() => {
			channels();
			api()
				.get(`${API_PATH}/media`)
				.reply(200, [{ id: 'med_1', path: '/uploads/a.png' }]);
		},
	],
	[
		'create: a channel choice saved empty (from a list that could not load)',
		post({ channels: ['ch_x', ''] }),
		'"Channel Names or IDs" holds an empty choice, saved while its list could not be loaded',
		'NodeOperationError',
		() => undefined,
	],
	[
		'create: a setting without a name',
		post({ settings: { setting: [{ target: 'network:x', name: ' ', value: '1' }] } }),
		'A setting has no name',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting of another network (TikTok: Title for X)',
		post({ settings: { setting: [{ target: 'network:x', name: 'tiktok:title', value: 'T' }] } }),
		'The setting "TikTok: Title" is a TikTok setting, but its row applies to X',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting of another network named by its label as the list showed it (LinkedIn: Post Images as Carousel for X)',
		post({
			settings: {
				setting: [{ target: 'network:x', name: 'linkedin:post_as_images_carousel', value: 'true' }],
			},
		}),
		'The setting "LinkedIn: Post Images as Carousel" is a LinkedIn setting, but its row applies to X',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting of another network, for one channel',
		post({
			settings: { setting: [{ target: 'channel:ch_x', name: 'youtube:title', value: 'T' }] },
		}),
		'The setting "YouTube: Title" is a YouTube setting, but its row applies to X',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting without a target',
		post({ settings: { setting: [{ target: '', name: 'title', value: '1' }] } }),
		'A setting does not say what it applies to',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting for a channel the post does not go to',
		post({ settings: { setting: [{ target: 'channel:ch_li', name: 'title', value: '1' }] } }),
		'A setting applies to channel "ch_li", which is not among the post\'s channels',
		'NodeOperationError',
		channels,
	],
	[
		'create: a setting for a connected channel the post does not go to, by bare ID',
		post({ settings: { setting: [{ target: 'ch_li', name: 'title', value: '1' }] } }),
		'A setting applies to channel "ch_li", which is not among the post\'s channels',
		'NodeOperationError',
		channels,
	],
	[
		'create: an upload the service answers without an ID',
		post({ media: { files: [{ source: 'binary', binaryPropertyName: 'photo' }] } }),
		'Media file 1 needs both an ID and a path (got no ID and path "/uploads/p.png")',
		'NodeOperationError',
		() => {
			channels();
			api().post(`${API_PATH}/upload`).reply(200, { path: '/uploads/p.png' });
		},
		undefined,
		[
			{
				json: {},
				binary: {
					photo: {
						data: Buffer.from('png').toString('base64'),
						mimeType: 'image/png',
						fileName: 'p.png',
					},
				},
			},
		],
	],
	[
		'create: a text for a channel the post does not go to',
		post({ options: { channelTexts: { text: [{ channel: 'ch_li', text: 'Hi LinkedIn' }] } } }),
		'"Text Per Channel" names channel "ch_li", which is not among the post\'s channels',
		'NodeOperationError',
		channels,
	],
	[
		'create: a text for a channel left at its first choice (a new row)',
		post({ options: { channelTexts: { text: [{ channel: '', text: 'Hi' }] } } }),
		'A text under "Text Per Channel" has no channel chosen',
		'NodeOperationError',
		channels,
	],
	[
		'create: the service requires a setting',
		post({ channels: ['ch_li'] }),
		'The service rejected the request: posts[0].settings.title: is required for LinkedIn',
		'NodeApiError',
		() => {
			channels();
			api()
				.post(`${API_PATH}/posts`)
				.reply(400, {
					errors: [{ field: 'posts[0].settings.title', message: 'is required for LinkedIn' }],
				});
		},
	],
	// Post → List, Delete, Find Free Slot
	[
		'list posts: bad start date',
		{ resource: 'post', operation: 'list', startDate: '={{ "soon" }}', endDate: '2026-11-02' },
		'"Start Date" is not a valid date: "soon". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'list posts: bad end date',
		{
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01',
			endDate: '={{ "2026-11-31" }}',
		},
		'"End Date" is not a valid date: "2026-11-31". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'list posts: empty start date',
		{ resource: 'post', operation: 'list', startDate: '={{ "" }}', endDate: '2026-11-02' },
		'"Start Date" is not a valid date: "". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		'NodeOperationError',
	],
	[
		'delete post: empty id',
		{ resource: 'post', operation: 'delete', postId: id('={{ "" }}') },
		'No post chosen',
		'NodeOperationError',
	],
	[
		'delete post: unknown id',
		{ resource: 'post', operation: 'delete', postId: id('p_gone') },
		'Not found: DELETE /posts/p_gone (404)',
		'NodeApiError',
		() => api().delete(`${API_PATH}/posts/p_gone`).reply(404, {}),
	],
	[
		'find slot: channel expression gives nothing',
		{ resource: 'post', operation: 'findFreeSlot', channel: id('={{ "" }}') },
		'No channel chosen',
		'NodeOperationError',
	],
	// Credentials
	[
		'Instance URL without https://',
		{ resource: 'account', operation: 'checkConnection' },
		'The Instance URL in the credential is not a web address',
		'NodeOperationError',
		undefined,
		{ instanceUrl: 'app.example.com', apiKey: API_KEY },
	],
	[
		'Instance URL empty',
		{ resource: 'account', operation: 'checkConnection' },
		'The Instance URL in the credential is not a web address',
		'NodeOperationError',
		undefined,
		{ instanceUrl: '', apiKey: API_KEY },
	],
	[
		'wrong API key',
		{ resource: 'account', operation: 'checkConnection' },
		'The service rejected the API key: it is wrong, or was revoked',
		'NodeApiError',
		() => api().get(`${API_PATH}/agents/ping`).reply(401, {}),
	],
];

describe('bad input: every case fails its item with a message that says what to fix', () => {
	test('every operation that takes input has at least one case here', () => {
		// Operations with nothing to get wrong: no parameters, or only Return All / Limit (a number field).
		const withoutInput = [
			'account.getBrandProfile',
			'channel.list',
			'channel.isConnected',
			'media.list',
			'studio.listFormats',
			'studio.getCredits',
		];
		const covered = new Set(
			CASES.map(
				([, parameters]) => `${String(parameters.resource)}.${String(parameters.operation)}`,
			),
		);
		const operations = Object.entries(resources).flatMap(([resource, operations]) =>
			Object.keys(operations).map((operation) => `${resource}.${operation}`),
		);
		expect(
			operations.filter(
				(operation) => !covered.has(operation) && !withoutInput.includes(operation),
			),
		).toEqual([]);
	});

	test.each(CASES.map((row) => [row[0], row] as const))('%s', async (_name, row) => {
		const [, parameters, message, kind, setup, credentials, items] = row;
		setup?.();
		// With continueOnFail the bad item becomes an error item; its error keeps the item's index.
		const result = await runAction(parameters as INodeParameters, {
			items: items ?? [{}],
			onError: 'continueRegularOutput',
			credentials: credentials ? { socialContentApi: credentials } : undefined,
		});
		expect(result.error).toBeUndefined();
		const failed = result.output('Social Content').filter((item) => item.json.error !== undefined);
		expect(failed.length).toBeGreaterThanOrEqual(1);
		const error = failed[failed.length - 1].error as {
			name?: string;
			message: string;
			description?: string;
			context?: { itemIndex?: number };
		};
		if (typeof message === 'string') expect(error.message).toBe(message);
		else expect(error.message).toMatch(message);
		expect(error.name).toBe(kind);
		expect(typeof error.context?.itemIndex).toBe('number');
		expect(error.description ?? '').not.toBe('');
	});
});

test('a setting of another network: the way back to a list that follows Applies To says to reopen the node\'s panel, not "once reopened"', async () => {
	channels();
	const result = await runAction(
		post({ settings: { setting: [{ target: 'network:x', name: 'tiktok:title', value: 'T' }] } }),
	);
	expect((result.error as { description?: string }).description).toBe(
		'Under "Applies To" choose a TikTok channel or "All TikTok Channels"; or, to keep X, close the node\'s panel and open it again (its "Setting Name" list then shows X\'s settings) and choose the setting there.',
	);
});

describe('a 400 in the form the real backend writes (#68)', () => {
	test('class-validator\'s "platform must be one of …": the field and the values it allows are named', async () => {
		api()
			.post(`${API_PATH}/hooks/score`)
			.reply(400, {
				message: ['platform must be one of the following values: x, linkedin'],
				error: 'Bad Request',
				statusCode: 400,
			});
		const result = await runAction(
			{ resource: 'hook', operation: 'score', text: 'Stop: read this' },
			{ onError: 'continueRegularOutput' },
		);
		const [failed] = result.output('Social Content');
		const error = failed.error as Error & { description?: string };
		expect(error.message).toBe(
			'The service rejected the request: platform must be one of the following values: x, linkedin',
		);
		expect(error.description).toBe(
			'Fix "platform", the field the service named: send one of x, linkedin, and run again.',
		);
	});
});
