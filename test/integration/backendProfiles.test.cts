/**
 * Posts, channels and media against both answer profiles of the sandbox: 'spec' (our reading of
 * the spec) and 'postiz' (the open-source backend whose public API these routes share: tag
 * objects, NestJS errors, `{ error: true }` on delete, the channel record with its OAuth tokens
 * on disconnect, no GET /media, 500 for unknown ids, find-slot without a zone, a group per channel).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { sandboxForSuite } from '../helpers/sandbox.cjs';
import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';

const suite = sandboxForSuite();

const DAY_MS = 86_400_000;
const photo: INodeExecutionData[] = [
	{
		json: {},
		binary: {
			photo: {
				data: Buffer.from('a picture').toString('base64'),
				mimeType: 'image/png',
				fileName: 'photo.png',
			},
		},
	},
];
const id = (value: string) => ({ __rl: true, mode: 'id', value });

async function run(
	parameters: INodeParameters,
	items: INodeExecutionData[] = [{ json: {} }],
	onError?: 'continueRegularOutput',
) {
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type: ACTION_NODE_TYPE,
				parameters,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
				onError,
			},
		],
		{ credentials: suite.credentials, input: items, settings: { timezone: 'UTC' } },
	);
	const output = result.error ? [] : result.output('Node');
	return { error: result.error, items: output.map((item) => item.json), output };
}

const createPost = (extra: IDataObject, items?: INodeExecutionData[]) =>
	run(
		{
			resource: 'post',
			operation: 'create',
			type: 'now',
			channels: ['ch_x'],
			content: { parts: [{ text: 'Launch day is here' }] },
			...extra,
		} as INodeParameters,
		items,
	);

describe.each(['spec', 'postiz'])('the %s profile', (profile) => {
	const postiz = profile === 'postiz';
	beforeEach(() => {
		suite.sandbox.reset();
		suite.sandbox.config.profile = profile;
	});

	test('Post → Create with Tags, a binary file and the X channel: created, tags sent as { value, label }', async () => {
		const { error, items } = await createPost(
			{
				media: { files: [{ source: 'binary', binaryPropertyName: 'photo' }] },
				options: { tags: 'launch, news' },
			},
			photo,
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([
			expect.objectContaining({ postId: expect.any(String), integration: 'ch_x' }),
		]);
		const [post] = suite.sandbox.state.posts;
		expect(post.tags).toEqual([
			{ value: 'launch', label: 'launch' },
			{ value: 'news', label: 'news' },
		]);
		expect(post.image).toEqual([
			expect.objectContaining({ path: expect.stringContaining('photo.png') }),
		]);
		expect(suite.sandbox.state.counts.uploads).toBe(1);
	});

	test('Tags from an expression: names become objects, objects pass as they are; the instance links only tags it has', async () => {
		const { error } = await createPost({
			options: {
				tags: '={{ ["launch", { "value": "promo", "label": "Promo!" }, "unknown-tag"] }}',
			},
		});
		expect(error).toBeUndefined();
		const expected = [
			{ value: 'launch', label: 'launch' },
			{ value: 'promo', label: 'Promo!' },
		];
		expect(suite.sandbox.state.posts[0].tags).toEqual(
			postiz ? expected : [...expected, { value: 'unknown-tag', label: 'unknown-tag' }],
		);
	});

	test('a Schedule date in the past fails before any request: no upload is left behind', async () => {
		const { error } = await createPost(
			{
				type: 'schedule',
				date: '2020-01-01T10:00:00',
				media: { files: [{ source: 'binary', binaryPropertyName: 'photo' }] },
			},
			photo,
		);
		// The time now is in the message: an AI agent's model may not know the date.
		expect(error?.message).toMatch(
			/^"Date" is in the past \(2020-01-01T10:00:00\.000Z; it is now [\d-]+T[\d:.]+Z\): a scheduled post needs a future date$/,
		);
		expect((error as { description?: string }).description).toContain('Publish Now');
		expect(suite.sandbox.state.counts.requests).toBe(0);
		expect(suite.sandbox.state.counts.uploads).toBe(0);
	});

	test('a Schedule date as a Unix time: below 1e12 in seconds, above in milliseconds', async () => {
		const seconds = Math.floor((Date.now() + 2 * DAY_MS) / 1000);
		const milliseconds = Date.now() + 3 * DAY_MS;
		expect(
			(await createPost({ type: 'schedule', date: `={{ ${seconds} }}` })).error,
		).toBeUndefined();
		expect(
			(await createPost({ type: 'schedule', date: `={{ "${seconds}" }}` })).error,
		).toBeUndefined();
		expect(
			(await createPost({ type: 'schedule', date: `={{ ${milliseconds} }}` })).error,
		).toBeUndefined();
		expect(suite.sandbox.state.posts.map((post) => post.publishDate)).toEqual([
			new Date(seconds * 1000).toISOString(),
			new Date(seconds * 1000).toISOString(),
			new Date(milliseconds).toISOString(),
		]);
	});

	test('Name/Value settings: numbers only when they read back the same', async () => {
		const setting = (name: string, value: string) => ({ target: 'network:x', name, value });
		const { error } = await createPost({
			settings: {
				setting: [
					setting('community', '12345678901234567890'),
					setting('price', '1.50'),
					setting('count', '42'),
					setting('flag', 'true'),
				],
			},
		});
		expect(error).toBeUndefined();
		expect(JSON.parse(String(suite.sandbox.state.posts[0].settings))).toMatchObject({
			community: '12345678901234567890',
			price: '1.50',
			count: 42,
			flag: true,
		});
	});

	test("a refused post gives the service's messages, all of them, and nothing else", async () => {
		const { error } = await createPost({
			media: { files: [{ source: 'idPath', id: 'med_gone', path: '/uploads/gone.png' }] },
		});
		expect(error?.message).toBe(
			postiz
				? 'The service rejected the request: posts[0].value.image unknown media med_gone'
				: 'The service rejected the request: Validation failed; posts[0].value.image: unknown media med_gone',
		);
	});

	test('the old form of tags (plain strings) is what the real backend refuses', async () => {
		const response = await fetch(`${suite.url}/api/public/v1/posts`, {
			method: 'POST',
			headers: { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' },
			body: JSON.stringify({
				type: 'now',
				date: new Date().toISOString(),
				shortLink: false,
				tags: ['launch'],
				posts: [
					{
						integration: { id: 'ch_x' },
						value: [{ content: 'Hello there', image: [] }],
						settings: { __type: 'x', who_can_reply_post: 'everyone' },
					},
				],
			}),
		});
		expect(response.status).toBe(postiz ? 400 : 200);
		if (postiz)
			expect(await response.json()).toEqual({
				message: ['tags.each value in nested property tags must be either object or array'],
				error: 'Bad Request',
				statusCode: 400,
			});
	});

	test("Post → Delete: { id, deleted: true } and nothing of the service's answer ({ error: true } on the real backend)", async () => {
		await createPost({ channels: ['ch_x', 'ch_linkedin'] });
		const [first] = suite.sandbox.state.posts;
		const { error, items } = await run({
			resource: 'post',
			operation: 'delete',
			postId: id(String(first.id)),
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([{ id: first.id, deleted: true }]);
		// One group per create here, one per channel there.
		expect(suite.sandbox.state.posts).toHaveLength(postiz ? 1 : 0);
	});

	test('Post → Delete of an unknown id: not found (404), or the 500 the real backend gives, read as "not found or not yours?"', async () => {
		const { error } = await run({ resource: 'post', operation: 'delete', postId: id('post_gone') });
		expect(error?.message).toBe(
			postiz
				? 'The service failed on post "post_gone" (500): it may not exist, or not be yours (Internal server error)'
				: 'Not found: DELETE /posts/post_gone (404): post not found',
		);
	});

	test('Channel → Disconnect: { id, disconnected: true }; the channel record and its OAuth tokens stay out', async () => {
		const { error, items } = await run({
			resource: 'channel',
			operation: 'disconnect',
			channel: id('ch_instagram'),
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([{ id: 'ch_instagram', disconnected: true }]);
		// The real backend's answer carried the channel's tokens and instance login (the sandbox's end in "-secret").
		expect(JSON.stringify(items)).not.toContain('secret');
		expect(suite.sandbox.state.channels.map((channel) => channel.id)).toEqual([
			'ch_x',
			'ch_linkedin',
		]);
	});

	test('Channel → Disconnect of an unknown channel names it', async () => {
		const { error } = await run({
			resource: 'channel',
			operation: 'disconnect',
			channel: id('ch_gone'),
		});
		expect(error?.message).toBe(
			postiz
				? 'The service failed on channel "ch_gone" (500): it may not exist, or not be yours (Internal server error)'
				: 'Not found: DELETE /integrations/ch_gone (404): channel not found',
		);
	});

	test.each([
		['http://localhost:8080/a.png', 'this machine (localhost)'],
		['http://127.0.0.1/a.png', 'a loopback address (127.0.0.1)'],
		['http://0x7f.1/a.png', 'a loopback address (127.0.0.1)'],
		['http://2130706433/a.png', 'a loopback address (127.0.0.1)'],
		['http://10.1.2.3/a.png', 'a private address (10.1.2.3)'],
		['http://172.20.0.5/a.png', 'a private address (172.20.0.5)'],
		['http://192.168.1.10/a.png', 'a private address (192.168.1.10)'],
		['http://169.254.169.254/latest/meta-data', 'a link-local address (169.254.169.254)'],
		['http://100.64.1.1/a.png', 'a shared (CGNAT) address (100.64.1.1)'],
		['http://0.0.0.0/a.png', 'a unspecified address (0.0.0.0)'],
		['http://[::1]/a.png', 'a loopback address [::1]'],
		['http://[::]/a.png', 'the unspecified address [::]'],
		['http://[fe80::1]/a.png', 'a link-local address [fe80::1]'],
		['http://[fd12:3456::1]/a.png', 'a private (unique local) address [fd12:3456::1]'],
		['http://[::ffff:192.168.0.1]/a.png', 'a private address (192.168.0.1)'],
		['http://[::ffff:7f00:1]/a.png', 'a loopback address (127.0.0.1)'],
		[
			'http://intranet.local/a.png',
			"a name for this machine, its network or its cloud's metadata (intranet.local)",
		],
	])('Import From URL refuses %s before sending', async (address, reason) => {
		const { error } = await run({ resource: 'media', operation: 'importFromUrl', url: address });
		expect(error?.message).toBe(`"URL" is not a public address: it points to ${reason}`);
		expect(suite.sandbox.state.counts.requests).toBe(0);
	});

	test.each([
		'https://example.com/a.png',
		'http://[2001:db8::1]/a.png',
		'http://8.8.8.8/a.png',
		'http://[::ffff:8.8.8.8]/a.png',
		'http://172.32.0.1/a.png',
		'http://intranet.example/a.png',
	])(
		'Import From URL sends %s (a public address, or a host name the service resolves)',
		async (address) => {
			const { error, items } = await run({
				resource: 'media',
				operation: 'importFromUrl',
				url: address,
			});
			expect(error).toBeUndefined();
			expect(items[0]).toMatchObject({
				id: expect.any(String),
				path: expect.stringMatching(/^\/uploads\//),
			});
		},
	);

	test('Media → Get Many: the library, or "this instance has no media library"', async () => {
		await run({ resource: 'media', operation: 'importFromUrl', url: 'https://example.com/a.png' });
		const { error, items } = await run({ resource: 'media', operation: 'list', returnAll: true });
		if (!postiz) {
			expect(items).toHaveLength(1);
			return;
		}
		expect(error?.message).toBe(
			'This instance has no media library to list (GET /media answered 404)',
		);
	});

	test('Post → Create From Media Library: the file, or "this instance has no media library"', async () => {
		const imported = (
			await run({ resource: 'media', operation: 'importFromUrl', url: 'https://example.com/a.png' })
		).items[0];
		const { error } = await createPost({
			media: { files: [{ source: 'library', mediaId: String(imported.id) }] },
		});
		if (postiz)
			expect(error?.message).toBe(
				'This instance has no media library to list (GET /media answered 404)',
			);
		else
			expect(suite.sandbox.state.posts[0].image).toEqual([
				{ id: imported.id, path: imported.path },
			]);
	});

	test('Post → Find Free Slot: a UTC time, with or without a zone, comes out with Z', async () => {
		const before = Date.now();
		const { items } = await run({
			resource: 'post',
			operation: 'findFreeSlot',
			channel: id('ch_x'),
		});
		// The sandbox's slot: the next whole hour at least an hour away, read as UTC either way.
		expect(items).toEqual([
			{ channelId: 'ch_x', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/) },
		]);
		const slot = Date.parse(String(items[0].date));
		expect(slot - before).toBeGreaterThanOrEqual(36e5);
		expect(slot - before).toBeLessThanOrEqual(2 * 36e5 + 60_000);
	});

	test('Post → Get Many lists what was created, dates with Z', async () => {
		const date = new Date(Date.now() + DAY_MS).toISOString();
		await createPost({ type: 'schedule', date });
		const { items } = await run({
			resource: 'post',
			operation: 'list',
			startDate: new Date().toISOString(),
			endDate: new Date(Date.now() + 2 * DAY_MS).toISOString(),
		});
		expect(items).toEqual([expect.objectContaining({ publishDate: date })]);
		// The real backend's list does not select a post's settings; ours gives them as JSON text, parsed.
		if (postiz)
			expect(items[0]).toMatchObject({
				state: 'QUEUE',
				releaseURL: null,
				integration: { id: 'ch_x', providerIdentifier: 'x' },
			});
		else
			expect(items[0]).toMatchObject({
				status: 'scheduled',
				settings: { who_can_reply_post: 'everyone', __type: 'x' },
			});
	});
});

describe("the real backend's post throttle (API_LIMIT posts an hour, answered as NestJS's throttler does)", () => {
	beforeEach(() => {
		suite.sandbox.reset();
		Object.assign(suite.sandbox.config, { profile: 'postiz', postsPerHour: 3 });
	});
	afterEach(() => delete suite.sandbox.config.postsPerHour);

	/** Six posts against 3 an hour: the first 3 are created; the other items come back. */
	const postSix = async () => {
		const { error, output: out } = await run(
			{
				resource: 'post',
				operation: 'create',
				type: 'now',
				channels: ['ch_x'],
				content: { parts: [{ text: '={{ "Post " + $json.n }}' }] },
			} as INodeParameters,
			[1, 2, 3, 4, 5, 6].map((n) => ({ json: { n } })),
			'continueRegularOutput',
		);
		expect(error).toBeUndefined();
		expect(out.slice(0, 3).map((item) => item.json.error)).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(suite.sandbox.state.posts.map((post) => post.content)).toEqual([
			'Post 1',
			'Post 2',
			'Post 3',
		]);
		return out.slice(3);
	};
	const description = (item: INodeExecutionData) =>
		String((item.error as { description?: string }).description);

	test('the throttle headers of the 3rd post say none remain for an hour: the rest fail at once, unsent, naming the wait; no request is refused', async () => {
		for (const item of await postSix()) {
			// The limit from the X-RateLimit-Limit header; the wait in plain units, for a person or a model.
			expect(item.json.error).toBe('Rate limited (limit 3): try again in 60 min');
			expect(description(item)).toMatch(
				/asks to wait 60 min \(it said so to an earlier request of this run\).*Max Rate Limit Wait.*so it was not sent\./,
			);
		}
		expect((suite.sandbox.state.counts.byRoute as IDataObject)['POST /posts']).toBe(3);
		expect(suite.sandbox.state.counts.rateLimited).toBe(0);
	});

	test('without the throttle headers (a proxy strips them): the rest fail naming the wait, with one refused request in all and nothing sent before the wait', async () => {
		suite.sandbox.config.postsQuotaHeaders = false;
		const rest = await postSix().finally(() => (suite.sandbox.config.postsQuotaHeaders = true));
		for (const item of rest) {
			expect(item.json.error).toBe('Rate limited: try again in 60 min');
			expect(description(item)).toMatch(/asks to wait 60 min/);
			expect(description(item)).toMatch(/Max Rate Limit Wait/);
		}
		expect(description(rest[0])).toMatch(/so it was not sent again\./);
		expect(description(rest[1])).toMatch(
			/\(it said so to an earlier request of this run\).*so it was not sent\./,
		);
		// The 4th post drew the one 429 (Retry-After: 3600); the 5th and 6th were not sent.
		expect((suite.sandbox.state.counts.byRoute as IDataObject)['POST /posts']).toBe(4);
		const refusals = (suite.sandbox.state.rateLog as Array<{ askedMs?: number }>).filter(
			(entry) => entry.askedMs !== undefined,
		);
		expect(refusals.map((entry) => entry.askedMs)).toEqual([3_600_000]);
	});
});
