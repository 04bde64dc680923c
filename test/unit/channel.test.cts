import nock from 'nock';

import { API_PATH, api, NODE, runAction } from '../helpers/fixtures.cjs';

const channels = [
	{ id: 'ch_x', name: 'Acme on X', identifier: 'x', picture: 'p.png' },
	{ id: 'ch_li', name: 'Acme on LinkedIn', identifier: 'linkedin' },
];
const channel = (value: string) => ({ __rl: true, mode: 'list', value });

describe('Channel → Get Many', () => {
	test.each([
		['an array', channels],
		['a wrapper', { integrations: channels }],
	])('GET /integrations answering %s → one item per channel', async (_shape, body) => {
		const scope = api().get(`${API_PATH}/integrations`).reply(200, body);
		const result = await runAction({ resource: 'channel', operation: 'list', simplify: false });
		expect(result.output(NODE).map((item) => item.json)).toEqual(channels);
		scope.done();
	});

	test("Simplify (the default): id, name, identifier and the network's name; other fields dropped", async () => {
		api()
			.get(`${API_PATH}/integrations`)
			.reply(200, [
				{ ...channels[0], providerIdentifier: 'x', disabled: false, customer: { id: 'c' } },
				channels[1],
			]);
		const result = await runAction({ resource: 'channel', operation: 'list' });
		expect(result.output(NODE).map((item) => item.json)).toEqual([
			{ id: 'ch_x', name: 'Acme on X', identifier: 'x', network: 'X', disabled: false },
			{ id: 'ch_li', name: 'Acme on LinkedIn', identifier: 'linkedin', network: 'LinkedIn' },
		]);
	});
});

describe('Channel → Get Connect URL', () => {
	test.each([
		['an object', { url: 'https://x.com/oauth?x=1' }],
		['a bare string', 'https://x.com/oauth?x=1'],
	])('GET /social/x answering %s → { provider, url }', async (_shape, body) => {
		const scope = api()
			.get(`${API_PATH}/social/x`)
			.reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({
			resource: 'channel',
			operation: 'getConnectUrl',
			provider: 'x',
		});
		expect(result.output(NODE)[0].json).toEqual({ provider: 'x', url: 'https://x.com/oauth?x=1' });
		scope.done();
	});

	test('a custom provider is sent path-encoded', async () => {
		const scope = api().get(`${API_PATH}/social/my%20net`).reply(200, { url: 'u' });
		await runAction({
			resource: 'channel',
			operation: 'getConnectUrl',
			provider: 'custom',
			customProvider: 'my net',
		});
		scope.done();
	});
});

describe('Channel → Is Connected', () => {
	test.each([
		['an object', { connected: true }, { connected: true }],
		['a bare boolean', false, { connected: false }],
		[
			'isConnected as a string',
			{ isConnected: 'false' },
			{ isConnected: 'false', connected: false },
		],
		[
			'a shape the spec does not show',
			{ status: 'ok', channels: 3 },
			{ status: 'ok', channels: 3 },
		],
	])('GET /is-connected answering %s', async (_shape, body, expected) => {
		const scope = api()
			.get(`${API_PATH}/is-connected`)
			.reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({ resource: 'channel', operation: 'isConnected' });
		expect(result.output(NODE)[0].json).toEqual(expected);
		scope.done();
	});
});

describe('Channel → Disconnect', () => {
	test.each([
		['an empty answer', ''],
		['an object', '{"success":true}'],
	])('DELETE /integrations/:id with %s → a confirmation with the id', async (_shape, body) => {
		const scope = api().delete(`${API_PATH}/integrations/ch_x`).reply(200, body);
		const result = await runAction({
			resource: 'channel',
			operation: 'disconnect',
			channel: channel('ch_x'),
		});
		expect(result.output(NODE)[0].json).toMatchObject({ id: 'ch_x', disconnected: true });
		scope.done();
	});

	test('an unknown channel: the 404 names the request', async () => {
		api().delete(`${API_PATH}/integrations/nope`).reply(404, {});
		const result = await runAction({
			resource: 'channel',
			operation: 'disconnect',
			channel: { __rl: true, mode: 'id', value: 'nope' },
		});
		expect(result.error?.message).toBe('Not found: DELETE /integrations/nope (404)');
	});
});

describe('Channel → Get Analytics / Get Post Analytics', () => {
	test('GET /analytics/:integration?date=7; a list → one item per metric', async () => {
		const metrics = [
			{ label: 'Impressions', data: [{ total: 10, date: '2026-11-01' }] },
			{ label: 'Likes', data: [] },
		];
		const scope = api().get(`${API_PATH}/analytics/ch_x`).query({ date: '7' }).reply(200, metrics);
		const result = await runAction({
			resource: 'channel',
			operation: 'getAnalytics',
			channel: channel('ch_x'),
			periodDays: 7,
		});
		expect(result.output(NODE).map((item) => item.json)).toEqual(metrics);
		scope.done();
	});

	test('Period (Days) untouched: the last 7 days (date=7)', async () => {
		const scope = api()
			.get(`${API_PATH}/analytics/ch_x`)
			.query({ date: '7' })
			.reply(200, { impressions: 3 });
		const result = await runAction({
			resource: 'channel',
			operation: 'getAnalytics',
			channel: channel('ch_x'),
		});
		expect(result.output(NODE)[0].json).toEqual({ impressions: 3 });
		scope.done();
	});

	test.each([[0], [2.5], [-7]])(
		'Period (Days) %p is a parameter error; nothing is sent',
		async (periodDays) => {
			const scope = api()
				.get(/analytics/)
				.reply(200, {});
			const result = await runAction({
				resource: 'channel',
				operation: 'getAnalytics',
				channel: channel('ch_x'),
				periodDays,
			});
			expect(result.error?.message).toBe(
				`"Period (Days)" must be a whole number of days, 1 or more (got ${periodDays})`,
			);
			expect(scope.isDone()).toBe(false);
			nock.cleanAll();
		},
	);

	test('GET /analytics/post/:postId?date=', async () => {
		const scope = api()
			.get(`${API_PATH}/analytics/post/p_1`)
			.query({ date: '30' })
			.reply(200, { likes: 4 });
		const result = await runAction({
			resource: 'channel',
			operation: 'getPostAnalytics',
			postId: { __rl: true, mode: 'id', value: 'p_1' },
			periodDays: 30,
		});
		expect(result.output(NODE)[0].json).toEqual({ likes: 4 });
		scope.done();
	});

	test('an empty post id is a parameter error', async () => {
		const result = await runAction({
			resource: 'channel',
			operation: 'getPostAnalytics',
			postId: { __rl: true, mode: 'id', value: '={{ "" }}' },
		});
		expect(result.error?.message).toBe('No post chosen');
	});
});
