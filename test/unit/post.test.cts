import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { resources } from '../../nodes/SocialContent/actions/router';
import { MAX_PAGES } from '../../nodes/shared/paging';
import { API_PATH, api, apiKeyCredentials, NODE, runAction } from '../helpers/fixtures.cjs';
import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';

const channels = [
	{ id: 'ch_x', name: 'Acme on X', identifier: 'x' },
	{ id: 'ch_li', name: 'Acme on LinkedIn', identifier: 'linkedin' },
];

function capturePost(
	answer: unknown = [
		{ postId: 'p_x', integration: 'ch_x' },
		{ postId: 'p_li', integration: 'ch_li' },
	],
) {
	const sent: { body?: IDataObject } = {};
	const scope = api()
		.get(`${API_PATH}/integrations`)
		.reply(200, channels)
		.post(`${API_PATH}/posts`, (body: IDataObject) => {
			sent.body = body;
			return true;
		})
		.reply(200, answer as object);
	return { sent, scope };
}

const base = {
	resource: 'post',
	operation: 'create',
	channels: ['ch_x', 'ch_li'],
	content: { parts: [{ text: 'Hello' }] },
};

describe('Post → Create', () => {
	test('Schedule: exact body, date as UTC ISO with ms and Z, __type from each channel, settings only where they apply; one item per channel', async () => {
		const { sent, scope } = capturePost();
		const result = await runAction({
			...base,
			type: 'schedule',
			date: '2030-12-01T09:30:00+01:00',
			content: { parts: [{ text: 'Part one' }, { text: 'Part two' }] },
			media: { files: [{ source: 'idPath', id: 'med_1', path: '/uploads/a.png' }] },
			settings: {
				xWhoCanReply: [{ value: 'following' }],
				setting: [
					{ target: 'network:linkedin', name: 'title', value: 'T' },
					{ target: 'channel:ch_x', name: 'made_with_ai', value: 'true' },
					{ target: 'network:instagram', name: 'post_type', value: 'story' },
					// From the list: the network's setting, sent under its own name.
					{ target: 'network:linkedin', name: 'linkedin:post_as_images_carousel', value: 'true' },
					{ target: 'channel:ch_x', name: 'x:community', value: 'https://x.com/i/communities/1' },
				],
			},
			options: {
				shortLink: true,
				tags: 'launch, promo',
				channelTexts: { text: [{ channel: 'ch_x', text: 'Short one' }] },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sent.body).toEqual({
			type: 'schedule',
			date: '2030-12-01T08:30:00.000Z',
			shortLink: true,
			tags: [
				{ value: 'launch', label: 'launch' },
				{ value: 'promo', label: 'promo' },
			],
			posts: [
				{
					integration: { id: 'ch_x' },
					value: [
						{ content: 'Short one', image: [{ id: 'med_1', path: '/uploads/a.png' }] },
						{ content: 'Part two', image: [] },
					],
					settings: {
						who_can_reply_post: 'following',
						made_with_ai: true,
						community: 'https://x.com/i/communities/1',
						__type: 'x',
					},
				},
				{
					integration: { id: 'ch_li' },
					value: [
						{ content: 'Part one', image: [{ id: 'med_1', path: '/uploads/a.png' }] },
						{ content: 'Part two', image: [] },
					],
					settings: { title: 'T', post_as_images_carousel: true, __type: 'linkedin' },
				},
			],
		});
		expect(result.output(NODE)).toEqual([
			{ json: { postId: 'p_x', integration: 'ch_x' }, pairedItem: { item: 0 } },
			{ json: { postId: 'p_li', integration: 'ch_li' }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	test.each([
		['UTC', '2030-12-01T09:30:00.000Z'],
		['Europe/Berlin', '2030-12-01T08:30:00.000Z'],
		['America/New_York', '2030-12-01T14:30:00.000Z'],
	])('a date without a zone is read in the workflow timezone (%s)', async (timezone, expected) => {
		const { sent, scope } = capturePost();
		await runAction({ ...base, type: 'schedule', date: '2030-12-01T09:30:00' }, { timezone });
		expect(sent.body?.date).toBe(expected);
		scope.done();
	});

	// Daylight saving: the offset is the one in force at that wall time, not at the same digits read as
	// UTC. As drafts: these nights of 2026 are past, and a Schedule date in the past is refused.
	test.each([
		[
			'Europe/Berlin',
			'2026-03-29T01:30',
			'2026-03-29T00:30:00.000Z',
			'the night clocks go forward: still CET (+1)',
		],
		[
			'Europe/Berlin',
			'2026-03-29T03:30',
			'2026-03-29T01:30:00.000Z',
			'after the change: CEST (+2)',
		],
		[
			'Europe/Berlin',
			'2026-10-25T01:30',
			'2026-10-24T23:30:00.000Z',
			'the night clocks go back: still CEST (+2)',
		],
		['Europe/Berlin', '2026-10-25T04:00', '2026-10-25T03:00:00.000Z', 'after the change: CET (+1)'],
		['America/New_York', '2026-03-08T01:30', '2026-03-08T06:30:00.000Z', 'EST before the change'],
		['America/New_York', '2026-11-01T00:30', '2026-11-01T04:30:00.000Z', 'EDT before the change'],
	])('%s %s is %s (%s)', async (timezone, date, expected) => {
		const { sent, scope } = capturePost();
		await runAction({ ...base, type: 'draft', date }, { timezone });
		expect(sent.body?.date).toBe(expected);
		scope.done();
	});

	test('Publish Now without a date sends now', async () => {
		const { sent, scope } = capturePost();
		const before = Date.now();
		await runAction({ ...base, type: 'now' });
		const sentDate = Date.parse(String(sent.body?.date));
		expect(String(sent.body?.date)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		expect(sentDate).toBeGreaterThanOrEqual(before - 1000);
		expect(sentDate).toBeLessThanOrEqual(Date.now() + 1000);
		scope.done();
	});

	test('Draft, a wrapped answer ({ posts: [...] })', async () => {
		const { sent, scope } = capturePost({ posts: [{ postId: 'p1' }] });
		const result = await runAction({ ...base, type: 'draft', channels: ['ch_li'] });
		expect(sent.body?.type).toBe('draft');
		expect(result.output(NODE).map((item) => item.json)).toEqual([{ postId: 'p1' }]);
		scope.done();
	});

	test('channels by ID from an expression (comma-separated); one /integrations read for many items', async () => {
		const scope = api()
			.get(`${API_PATH}/integrations`)
			.once()
			.reply(200, channels)
			.post(`${API_PATH}/posts`)
			.times(3)
			.reply(200, [{ postId: 'p' }]);
		const result = await runAction(
			{ ...base, type: 'now', channels: '={{ "ch_x, ch_li" }}' },
			{ items: [{}, {}, {}] },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toHaveLength(3);
		scope.done();
	});

	test('an unknown channel is refused before posting, listing the connected ones', async () => {
		const post = api()
			.get(`${API_PATH}/integrations`)
			.reply(200, channels)
			.post(`${API_PATH}/posts`)
			.reply(200, []);
		const result = await runAction({ ...base, type: 'now', channels: ['ch_gone'] });
		// The candidates are in the message itself: an AI agent's model is given nothing else.
		expect(result.error?.message).toBe(
			'Channel "ch_gone" is none of the connected channels: Acme on X · X (ch_x), Acme on LinkedIn · LinkedIn (ch_li). Give a channel\'s id or exact name.',
		);
		expect(post.isDone()).toBe(false);
	});

	test.each([
		['its exact name', 'Acme on LinkedIn', 'ch_li'],
		['its name in another case', 'acme on x', 'ch_x'],
		['its dropdown label', 'Acme on X · X', 'ch_x'],
		['a network with one connected channel', 'LinkedIn', 'ch_li'],
		['a network by its identifier', 'x', 'ch_x'],
		['its id', 'ch_li', 'ch_li'],
	])('a channel given by %s ("%s") posts to it', async (_how, given, id) => {
		const { sent } = capturePost([{ postId: 'p_1', integration: id }]);
		const result = await runAction({ ...base, type: 'now', channels: [given] });
		expect(result.error).toBeUndefined();
		const posts = sent.body?.posts as Array<{ integration: { id: string } }>;
		expect(posts.map((entry) => entry.integration.id)).toEqual([id]);
	});

	test('a name two channels share is refused naming both, and nothing is posted', async () => {
		const post = api()
			.get(`${API_PATH}/integrations`)
			.reply(200, [...channels, { id: 'ch_x2', name: 'Other', identifier: 'x' }])
			.post(`${API_PATH}/posts`)
			.reply(200, []);
		const result = await runAction({ ...base, type: 'now', channels: ['X'] });
		expect(result.error?.message).toBe(
			'Channel "X" matches 2 connected channels: Acme on X · X (ch_x), Other · X (ch_x2). Give one of their ids.',
		);
		// Said once: the description adds only how to connect one more.
		expect((result.error as { description?: string }).description).toBe(
			'A channel not listed is connected first: "Channel → Get Connect URL" (resource "channel", operation "getConnectUrl").',
		);
		expect(post.isDone()).toBe(false);
	});

	test('a bad date is refused', async () => {
		const result = await runAction({ ...base, type: 'schedule', date: '={{ "next tuesday" }}' });
		expect(result.error?.message).toBe(
			'"Date" is not a valid date: "next tuesday". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		);
	});

	test('a past date for a scheduled post: the advice names the Type to send as the panel shows it and as its value', async () => {
		const result = await runAction({ ...base, type: 'schedule', date: '2021-06-01T10:00:00Z' });
		expect((result.error as { description?: string }).description).toBe(
			'Pick a later date, or set Type to "Publish Now" (now) to post right away.',
		);
	});

	test('no text and no media is refused', async () => {
		api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction({ ...base, type: 'now', content: { parts: [{ text: '  ' }] } });
		expect(result.error?.message).toBe('The post has no text and no media');
	});

	test('a media file without a path is refused before any request', async () => {
		const scope = api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction({
			...base,
			type: 'now',
			media: { files: [{ source: 'idPath', id: 'med_1', path: '' }] },
		});
		expect(result.error?.message).toBe(
			'Media file 1 needs both an ID and a path (got ID "med_1" and no path)',
		);
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});

	test('X channels get Who Can Reply: Everyone when nobody set it; other networks get nothing of it', async () => {
		const { sent, scope } = capturePost();
		await runAction({ ...base, type: 'now' });
		expect((sent.body?.posts as IDataObject[]).map((entry) => entry.settings)).toEqual([
			{ who_can_reply_post: 'everyone', __type: 'x' },
			{ __type: 'linkedin' },
		]);
		scope.done();
	});

	test('a setting by bare network or channel id (from an expression) goes where it names', async () => {
		const { sent, scope } = capturePost();
		await runAction({
			...base,
			type: 'now',
			settings: {
				setting: [
					{ target: 'linkedin', name: 'visibility', value: 'PUBLIC' },
					{ target: 'ch_x', name: 'community', value: '{"id": 7}' },
				],
			},
		});
		expect((sent.body?.posts as IDataObject[]).map((entry) => entry.settings)).toEqual([
			{ who_can_reply_post: 'everyone', community: { id: 7 }, __type: 'x' },
			{ visibility: 'PUBLIC', __type: 'linkedin' },
		]);
		scope.done();
	});

	test('Publish Now ignores a date left in the hidden field', async () => {
		const { sent, scope } = capturePost();
		const before = Date.now();
		await runAction({ ...base, type: 'now', date: '2020-01-01T00:00:00Z' });
		expect(Date.parse(String(sent.body?.date))).toBeGreaterThanOrEqual(before - 1000);
		scope.done();
	});

	test('a 400 from the service lists its field errors', async () => {
		api()
			.get(`${API_PATH}/integrations`)
			.reply(200, channels)
			.post(`${API_PATH}/posts`)
			.reply(400, {
				errors: [{ field: 'posts[0].settings.who_can_reply_post', message: 'is required' }],
			});
		const result = await runAction({ ...base, type: 'now' });
		expect(result.error?.message).toBe(
			'The service rejected the request: posts[0].settings.who_can_reply_post: is required',
		);
	});
});

describe('Post → Get Many', () => {
	test('GET /posts?startDate&endDate as ISO; settings strings parsed, dates normalised', async () => {
		const scope = api()
			.get(`${API_PATH}/posts`)
			.query({ startDate: '2026-11-01T00:00:00.000Z', endDate: '2026-11-30T23:59:59.000Z' })
			.reply(200, {
				posts: [
					{ id: 'p1', publishDate: '2026-11-05T10:00:00+02:00', settings: '{"__type":"x"}' },
					{ id: 'p2', settings: 'oops' },
				],
			});
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01T00:00:00',
			endDate: '2026-11-30T23:59:59',
		});
		expect(result.output(NODE).map((item) => item.json)).toEqual([
			{ id: 'p1', publishDate: '2026-11-05T08:00:00.000Z', settings: { __type: 'x' } },
			{ id: 'p2', settings: 'oops' },
		]);
		scope.done();
	});

	test('a plain array answer', async () => {
		api()
			.get(`${API_PATH}/posts`)
			.query(true)
			.reply(200, [{ id: 'p1' }]);
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01',
			endDate: '2026-11-02',
		});
		expect(result.output(NODE).map((item) => item.json)).toEqual([{ id: 'p1' }]);
	});

	test('a paged answer is followed to its end, by page number or by cursor, the range sent each time', async () => {
		const range = { startDate: '2026-11-01T00:00:00.000Z', endDate: '2026-11-02T00:00:00.000Z' };
		const scope = api()
			.get(`${API_PATH}/posts`)
			.query(range)
			.reply(200, { posts: [{ id: 'p1' }, { id: 'p2' }], page: 1, pages: 3 })
			.get(`${API_PATH}/posts`)
			.query({ ...range, page: 2 })
			.reply(200, { posts: [{ id: 'p3' }], page: 2, pages: 3 })
			.get(`${API_PATH}/posts`)
			.query({ ...range, page: 3 })
			.reply(200, { posts: [{ id: 'p4' }], nextCursor: 'c5' })
			.get(`${API_PATH}/posts`)
			.query({ ...range, cursor: 'c5' })
			.reply(200, { posts: [{ id: 'p5' }], nextCursor: null });
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01T00:00:00Z',
			endDate: '2026-11-02T00:00:00Z',
		});
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
		scope.done();
	});

	test('past the page guard (a service that always says there is more): a notice says the output is not the whole range and what to do', async () => {
		let page = 0;
		api()
			.get(`${API_PATH}/posts`)
			.query(true)
			.times(MAX_PAGES + 1)
			.reply(200, () => ({ posts: [{ id: `p${++page}` }], hasMore: true }));
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '2026-11-01T00:00:00Z',
			endDate: '2026-11-02T00:00:00Z',
		});
		expect(result.output(NODE)).toHaveLength(MAX_PAGES);
		const hints = result.run.data.resultData.runData[NODE][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			`The list stopped after ${MAX_PAGES.toLocaleString('en-US')} pages (${MAX_PAGES.toLocaleString('en-US')} posts) although the service said there were more: the output is not the whole range. Narrow Start Date and End Date, and read the rest in further runs.`,
		]);
		nock.cleanAll();
	}, 120_000);

	test('a bad start date is refused', async () => {
		const result = await runAction({
			resource: 'post',
			operation: 'list',
			startDate: '={{ "2026-13-45" }}',
			endDate: '2026-11-02',
		});
		expect(result.error?.message).toBe(
			'"Start Date" is not a valid date: "2026-13-45". Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z',
		);
	});
});

describe('Post → Delete', () => {
	test.each([
		['an empty answer', ''],
		['an object', '{"deleted":true,"group":"g1"}'],
		["the real backend's { error: true }", '{"error":true}'],
	])('DELETE /posts/:id with %s → { id, deleted: true }, nothing else', async (_shape, body) => {
		const scope = api().delete(`${API_PATH}/posts/p_1`).reply(200, body);
		const result = await runAction({
			resource: 'post',
			operation: 'delete',
			postId: { __rl: true, mode: 'list', value: 'p_1' },
		});
		expect(result.output(NODE)[0].json).toEqual({ id: 'p_1', deleted: true });
		scope.done();
	});

	test("the Post field says what a group is, and that on some instances it is one channel's post", () => {
		const field = resources.post.delete.description.find((property) => property.name === 'postId');
		expect(field?.description).toMatch(
			/group is what one Post → Create made.*on others \(each channel its own group\) only this channel's post/,
		);
	});
});

describe('Post → Find Free Slot', () => {
	test.each([
		['an object', { date: '2026-12-01T10:00:00+01:00' }],
		['a bare date string', '2026-12-01T09:00:00Z'],
	])('GET /find-slot/:id answering %s → { channelId, date } in UTC ISO', async (_shape, body) => {
		const scope = api()
			.get(`${API_PATH}/find-slot/ch_x`)
			.reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({
			resource: 'post',
			operation: 'findFreeSlot',
			channel: { __rl: true, mode: 'list', value: 'ch_x' },
		});
		expect(result.output(NODE)[0].json).toEqual({
			channelId: 'ch_x',
			date: '2026-12-01T09:00:00.000Z',
		});
		scope.done();
	});
});

describe('Post → Create: where the media come from (no expressions)', () => {
	const imageOf = (body: IDataObject | undefined) =>
		(body?.posts as Array<{ value: Array<{ image: unknown }> }>).map(
			(entry) => entry.value[0].image,
		);

	test('Binary File From Input: one POST /upload (the streaming upload Media → Upload uses), then the post with what it returned', async () => {
		const order: string[] = [];
		let uploaded = '';
		const sent: { body?: IDataObject } = {};
		const scope = api()
			.get(`${API_PATH}/integrations`)
			.reply(200, channels)
			.post(`${API_PATH}/upload`, (body: string) => {
				uploaded = body;
				return true;
			})
			.reply(() => {
				order.push('upload');
				return [200, { id: 'med_up', path: '/uploads/photo.png' }];
			})
			.post(`${API_PATH}/posts`, (body: IDataObject) => {
				sent.body = body;
				return true;
			})
			.reply(() => {
				order.push('post');
				return [200, [{ postId: 'p_x' }, { postId: 'p_li' }]];
			});
		const result = await runChain(
			[
				{ name: 'Start', type: START_NODE_TYPE },
				{
					name: NODE,
					type: ACTION_NODE_TYPE,
					parameters: {
						...base,
						authentication: 'apiKey',
						type: 'now',
						media: { files: [{ source: 'binary', binaryPropertyName: 'photo' }] },
					},
					credentials: { socialContentApi: { id: '1', name: 'c' } },
				},
			],
			{
				credentials: apiKeyCredentials,
				input: [
					{
						json: {},
						binary: {
							photo: {
								data: Buffer.from('png bytes').toString('base64'),
								mimeType: 'image/png',
								fileName: 'photo.png',
							},
						} as never,
					},
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(order).toEqual(['upload', 'post']);
		expect(uploaded).toContain('name="file"; filename="photo.png"');
		expect(uploaded).toContain('png bytes');
		expect(imageOf(sent.body)).toEqual([
			[{ id: 'med_up', path: '/uploads/photo.png' }],
			[{ id: 'med_up', path: '/uploads/photo.png' }],
		]);
		scope.done();
	});

	test.each([
		[
			'simplified (path)',
			{
				id: 'gen_1',
				status: 'done',
				outputs: [
					{ id: 'med_1', path: '/uploads/g1.png' },
					{ id: 'med_2', path: '/uploads/g2.png' },
				],
			},
		],
		[
			'not simplified (path and location)',
			{
				id: 'gen_1',
				status: 'done',
				format: 'slideshow',
				formatId: 'slideshow',
				outputs: [
					{ id: 'med_1', path: '/uploads/g1.png', location: '/uploads/g1.png' },
					{ id: 'med_2', path: '/uploads/g2.png', location: '/uploads/g2.png' },
				],
			},
		],
		[
			'as the service sent it (files with url)',
			{
				id: 'gen_1',
				status: 'done',
				files: [
					{ id: 'med_1', url: '/uploads/g1.png' },
					{ id: 'med_2', url: '/uploads/g2.png' },
				],
			},
		],
	])(
		'Outputs of Input Generation, the generation %s: every output attached, in order',
		async (_shape, generation) => {
			const { sent, scope } = capturePost();
			const result = await runAction(
				{ ...base, type: 'now', media: { files: [{ source: 'generation' }] } },
				{ items: [generation] },
			);
			expect(result.error).toBeUndefined();
			expect(imageOf(sent.body)[0]).toEqual([
				{ id: 'med_1', path: '/uploads/g1.png' },
				{ id: 'med_2', path: '/uploads/g2.png' },
			]);
			scope.done();
		},
	);

	test('Outputs of Input Generation after Start Generation without waiting: says to wait, nothing sent', async () => {
		const scope = api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction(
			{ ...base, type: 'now', media: { files: [{ source: 'generation' }] } },
			{ items: [{ id: 'gen_1', status: 'queued', outputs: [] }] },
		);
		expect(result.error?.message).toBe(
			'Media file 1: the input item is not a finished generation with outputs (its status is "queued")',
		);
		expect((result.error as { description?: string }).description).toContain('Wait for Completion');
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});

	test('From Media Library: the chosen id with its path looked up in GET /media (pages read until found)', async () => {
		const { sent, scope } = capturePost();
		scope
			.get(`${API_PATH}/media`)
			.reply(200, { pages: 2, results: [{ id: 'med_a', path: '/uploads/a.png' }] })
			.get(`${API_PATH}/media`)
			.query({ page: 2 })
			.reply(200, { pages: 2, results: [{ id: 'med_b', url: '/uploads/b.mp4' }] });
		const result = await runAction({
			...base,
			type: 'now',
			media: { files: [{ source: 'library', mediaId: 'med_b' }] },
		});
		expect(result.error).toBeUndefined();
		expect(imageOf(sent.body)[0]).toEqual([{ id: 'med_b', path: '/uploads/b.mp4' }]);
		scope.done();
	});

	test('sources combine, in the order given', async () => {
		const { sent, scope } = capturePost();
		scope.get(`${API_PATH}/media`).reply(200, [{ id: 'med_lib', path: '/uploads/lib.png' }]);
		await runAction(
			{
				...base,
				type: 'now',
				media: {
					files: [
						{ source: 'library', mediaId: 'med_lib' },
						{ source: 'generation' },
						{ source: 'idPath', id: 'med_x', path: '/uploads/x.png' },
					],
				},
			},
			{
				items: [
					{ id: 'gen_1', status: 'done', outputs: [{ id: 'med_g', path: '/uploads/g.png' }] },
				],
			},
		);
		expect(imageOf(sent.body)[0]).toEqual([
			{ id: 'med_lib', path: '/uploads/lib.png' },
			{ id: 'med_g', path: '/uploads/g.png' },
			{ id: 'med_x', path: '/uploads/x.png' },
		]);
		scope.done();
	});
});
