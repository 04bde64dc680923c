import type { IDataObject } from 'n8n-workflow';

import { API_PATH, api, NODE, runAction } from '../helpers/fixtures';

const channels = [
	{ id: 'ch_x', name: 'Acme on X', identifier: 'x' },
	{ id: 'ch_li', name: 'Acme on LinkedIn', identifier: 'linkedin' },
];

function capturePost(answer: unknown = [{ postId: 'p_x', integration: 'ch_x' }, { postId: 'p_li', integration: 'ch_li' }]) {
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
	test('Schedule: exact body, date as UTC ISO with ms and Z, __type from each channel; one item per channel', async () => {
		const { sent, scope } = capturePost();
		const result = await runAction({
			...base,
			type: 'schedule',
			date: '2026-12-01T09:30:00+01:00',
			content: { parts: [{ text: 'Part one' }, { text: 'Part two' }] },
			media: { files: [{ id: 'med_1', path: '/uploads/a.png' }] },
			settings: { who_can_reply_post: 'following', other: { setting: [{ name: 'made_with_ai', value: 'true' }] }, json: '{"title":"T"}' },
			options: { shortLink: true, tags: 'launch, promo' },
		});
		expect(result.error).toBeUndefined();
		expect(sent.body).toEqual({
			type: 'schedule',
			date: '2026-12-01T08:30:00.000Z',
			shortLink: true,
			tags: ['launch', 'promo'],
			posts: [
				{
					integration: { id: 'ch_x' },
					value: [
						{ content: 'Part one', image: [{ id: 'med_1', path: '/uploads/a.png' }] },
						{ content: 'Part two', image: [] },
					],
					settings: { who_can_reply_post: 'following', made_with_ai: true, title: 'T', __type: 'x' },
				},
				{
					integration: { id: 'ch_li' },
					value: [
						{ content: 'Part one', image: [{ id: 'med_1', path: '/uploads/a.png' }] },
						{ content: 'Part two', image: [] },
					],
					settings: { made_with_ai: true, title: 'T', __type: 'linkedin' },
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
		['UTC', '2026-12-01T09:30:00.000Z'],
		['Europe/Berlin', '2026-12-01T08:30:00.000Z'],
		['America/New_York', '2026-12-01T14:30:00.000Z'],
	])('a date without a zone is read in the workflow timezone (%s)', async (timezone, expected) => {
		const { sent, scope } = capturePost();
		await runAction({ ...base, type: 'schedule', date: '2026-12-01T09:30:00' }, { timezone });
		expect(sent.body?.date).toBe(expected);
		scope.done();
	});

	// Daylight saving: the offset is the one in force at that wall time, not at the same digits read as UTC.
	test.each([
		['Europe/Berlin', '2026-03-29T01:30', '2026-03-29T00:30:00.000Z', 'the night clocks go forward: still CET (+1)'],
		['Europe/Berlin', '2026-03-29T03:30', '2026-03-29T01:30:00.000Z', 'after the change: CEST (+2)'],
		['Europe/Berlin', '2026-10-25T01:30', '2026-10-24T23:30:00.000Z', 'the night clocks go back: still CEST (+2)'],
		['Europe/Berlin', '2026-10-25T04:00', '2026-10-25T03:00:00.000Z', 'after the change: CET (+1)'],
		['America/New_York', '2026-03-08T01:30', '2026-03-08T06:30:00.000Z', 'EST before the change'],
		['America/New_York', '2026-11-01T00:30', '2026-11-01T04:30:00.000Z', 'EDT before the change'],
	])('%s %s is %s (%s)', async (timezone, date, expected) => {
		const { sent, scope } = capturePost();
		await runAction({ ...base, type: 'schedule', date }, { timezone });
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
		const post = api().get(`${API_PATH}/integrations`).reply(200, channels).post(`${API_PATH}/posts`).reply(200, []);
		const result = await runAction({ ...base, type: 'now', channels: ['ch_gone'] });
		expect(result.error?.message).toBe('Channel "ch_gone" is not connected');
		expect((result.error as { description?: string }).description).toContain('Acme on X (ch_x)');
		expect(post.isDone()).toBe(false);
	});

	test('a bad date is refused', async () => {
		const result = await runAction({ ...base, type: 'schedule', date: '={{ "next tuesday" }}' });
		expect(result.error?.message).toBe('"Date" is not a valid date: "next tuesday"');
	});

	test('no text and no media is refused', async () => {
		api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction({ ...base, type: 'now', content: { parts: [{ text: '  ' }] } });
		expect(result.error?.message).toBe('The post has no text and no media');
	});

	test('a media file without a path is refused', async () => {
		api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction({ ...base, type: 'now', media: { files: [{ id: 'med_1', path: '' }] } });
		expect(result.error?.message).toBe('Each media file needs both an ID and a path');
	});

	test('malformed settings JSON is refused, naming the field', async () => {
		api().get(`${API_PATH}/integrations`).reply(200, channels);
		const result = await runAction({ ...base, type: 'now', settings: { json: '{oops' } });
		expect(result.error?.message).toBe('"Settings (JSON)" is not valid JSON');
	});

	test('a 400 from the service lists its field errors', async () => {
		api()
			.get(`${API_PATH}/integrations`)
			.reply(200, channels)
			.post(`${API_PATH}/posts`)
			.reply(400, { errors: [{ field: 'posts[0].settings.who_can_reply_post', message: 'is required' }] });
		const result = await runAction({ ...base, type: 'now' });
		expect(result.error?.message).toBe('The service rejected the request: posts[0].settings.who_can_reply_post: is required');
	});
});

describe('Post → List', () => {
	test('GET /posts?startDate&endDate as ISO; settings strings parsed, dates normalised', async () => {
		const scope = api()
			.get(`${API_PATH}/posts`)
			.query({ startDate: '2026-11-01T00:00:00.000Z', endDate: '2026-11-30T23:59:59.000Z' })
			.reply(200, {
				posts: [{ id: 'p1', publishDate: '2026-11-05T10:00:00+02:00', settings: '{"__type":"x"}' }, { id: 'p2', settings: 'oops' }],
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
		api().get(`${API_PATH}/posts`).query(true).reply(200, [{ id: 'p1' }]);
		const result = await runAction({ resource: 'post', operation: 'list', startDate: '2026-11-01', endDate: '2026-11-02' });
		expect(result.output(NODE).map((item) => item.json)).toEqual([{ id: 'p1' }]);
	});

	test('a bad start date is refused', async () => {
		const result = await runAction({ resource: 'post', operation: 'list', startDate: '={{ "2026-13-45" }}', endDate: '2026-11-02' });
		expect(result.error?.message).toBe('"Start Date" is not a valid date: "2026-13-45"');
	});
});

describe('Post → Delete', () => {
	test.each([
		['an empty answer', ''],
		['an object', '{"deleted":true,"group":"g1"}'],
	])('DELETE /posts/:id with %s → a confirmation with the id', async (_shape, body) => {
		const scope = api().delete(`${API_PATH}/posts/p_1`).reply(200, body);
		const result = await runAction({ resource: 'post', operation: 'delete', postId: 'p_1' });
		expect(result.output(NODE)[0].json).toMatchObject({ id: 'p_1', deleted: true });
		scope.done();
	});
});

describe('Post → Find Free Slot', () => {
	test.each([
		['an object', { date: '2026-12-01T10:00:00+01:00' }],
		['a bare date string', '2026-12-01T09:00:00Z'],
	])('GET /find-slot/:id answering %s → { channelId, date } in UTC ISO', async (_shape, body) => {
		const scope = api().get(`${API_PATH}/find-slot/ch_x`).reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({ resource: 'post', operation: 'findFreeSlot', channel: { __rl: true, mode: 'list', value: 'ch_x' } });
		expect(result.output(NODE)[0].json).toEqual({ channelId: 'ch_x', date: '2026-12-01T09:00:00.000Z' });
		scope.done();
	});
});
