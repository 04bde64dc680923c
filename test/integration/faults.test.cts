/**
 * Faults from the sandbox, batch by batch, with continueOnFail: every item must come out either as
 * a result or as an error item (none dropped), nothing may be created or charged twice, and no
 * exception may escape. The counts are printed at the end.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { startGeneration as startGenerationOf } from '../helpers/parameters.cjs';
import { createSandbox, type Sandbox } from '../helpers/sandbox.cjs';
import { waitFor } from '../helpers/waitFor.cjs';
import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';

const counts = {
	unhandled: 0,
	duplicatePosts: 0,
	generationsStartedTwice: 0,
	droppedItems: 0,
	items: 0,
	errorItems: 0,
};
const onUnhandled = () => counts.unhandled++;
let sandbox: Sandbox;
let credentials: Record<string, ICredentialDataDecryptedObject>;

beforeAll(async () => {
	process.on('unhandledRejection', onUnhandled);
	process.on('uncaughtException', onUnhandled);
	nock.enableNetConnect('127.0.0.1');
	sandbox = createSandbox({ queuedMs: 20, runningMs: 60, credits: 100000 });
	credentials = {
		socialContentApi: { instanceUrl: await sandbox.listen(), apiKey: 'sk_sandbox_demo_key' },
	};
});
afterAll(async () => {
	process.off('unhandledRejection', onUnhandled);
	process.off('uncaughtException', onUnhandled);
	await sandbox.close();
	nock.restore();
	// eslint-disable-next-line no-console
	console.info(`fault suite counts: ${JSON.stringify(counts)}`);
});
beforeEach(() => sandbox.reset());
afterEach(() => {
	// Nothing created twice: posts by their text and channel, generations by their hook.
	const posts = sandbox.state.posts.map(
		(post) => `${String(post.integration)}|${String(post.content)}`,
	);
	counts.duplicatePosts += posts.length - new Set(posts).size;
});

const fault = (body: IDataObject) => sandbox.state.faults.push({ count: 1, ...body });

async function batch(parameters: INodeParameters, n: number, requestOptions: IDataObject = {}) {
	const items = Array.from({ length: n }, (_, i) => ({ i, text: `item ${i}` }));
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type: ACTION_NODE_TYPE,
				parameters: {
					...parameters,
					requestOptions: { maxRateLimitWait: 120, ...requestOptions },
				} as INodeParameters,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
				onError: 'continueRegularOutput',
			},
		],
		{ credentials, input: items, settings: { timezone: 'UTC' } },
	);
	expect(result.error).toBeUndefined();
	const out = result.output('Node');
	const seen = new Set(out.map((item) => (item.pairedItem as { item: number }).item));
	counts.items += n;
	counts.droppedItems += n - seen.size;
	counts.errorItems += out.filter((item) => item.json.error !== undefined).length;
	expect(seen.size).toBe(n);
	return out;
}

const createPost = {
	resource: 'post',
	operation: 'create',
	type: 'draft',
	channels: ['ch_linkedin'],
	content: { parts: [{ text: '={{ $json.text }}' }] },
};
const startGeneration = startGenerationOf('wall_of_text', { hook: '={{ $json.text }}' });

describe('faults', () => {
	test('a 429 storm (2 req/s bucket, 4 concurrent): all 30 posts created once, none failed', async () => {
		sandbox.config.buckets = { default: { limit: 2 }, hooks: { limit: 20 }, studio: { limit: 20 } };
		const out = await batch(createPost, 30, { concurrency: 4 });
		sandbox.config.buckets = {
			default: { limit: 100 },
			hooks: { limit: 20 },
			studio: { limit: 20 },
		};
		expect(out.filter((item) => item.json.error)).toEqual([]);
		expect(sandbox.state.counts.postsCreated).toBe(30);
		expect(sandbox.state.counts.rateLimited).toBeGreaterThan(0);
	});

	test('5xx HTML pages on creates: those items fail, are not retried, nothing is posted twice', async () => {
		fault({ path: '/posts', method: 'POST', kind: 'html500', count: 3 });
		const out = await batch(createPost, 10);
		expect(out.filter((item) => item.json.error).map((item) => item.json.error)).toEqual(
			Array(3).fill("The server answered 502 with a web page instead of the API's JSON"),
		);
		expect(sandbox.state.counts.postsCreated).toBe(7);
	});

	test('5xx HTML pages on reads: retried, every item succeeds', async () => {
		fault({ path: '/credits', method: 'GET', kind: 'html500', count: 2 });
		const out = await batch({ resource: 'studio', operation: 'getCredits' }, 3);
		expect(out.filter((item) => item.json.error)).toEqual([]);
	});

	test('a connection reset after the server started a generation: not retried, charged once', async () => {
		fault({ path: '/studio/generations', method: 'POST', kind: 'resetAfter', count: 2 });
		const out = await batch(startGeneration, 8);
		expect(out.filter((item) => item.json.error)).toHaveLength(2);
		expect(sandbox.state.counts.generationsStarted).toBe(8);
		const inputs = sandbox.state.generations.map((generation) => generation.credits);
		expect(inputs).toHaveLength(8);
		expect(sandbox.state.credits).toBe(100000 - 8);
		counts.generationsStartedTwice += sandbox.state.counts.generationsStarted - 8;
	});

	test('a connection reset before the server did anything: the item fails, the rest go on', async () => {
		fault({ path: '/posts', method: 'POST', kind: 'reset', count: 2 });
		const out = await batch(createPost, 6);
		expect(
			out.filter((item) => String(item.json.error ?? '').includes('the connection was reset')),
		).toHaveLength(2);
		expect(sandbox.state.counts.postsCreated).toBe(4);
	});

	test('timeouts: a slow answer past the Timeout fails that item only', async () => {
		fault({ path: '/posts', method: 'POST', kind: 'slow', delayMs: 1500, count: 1 });
		const out = await batch(createPost, 3, { timeout: 1 });
		const failed = out.filter((item) => item.json.error);
		expect(failed.map((item) => item.json.error)).toEqual([
			`${new URL(String(credentials.socialContentApi.instanceUrl)).host} did not answer within 1 s`,
		]);
		// Our words: slow, not "perhaps offline"; sentences end once.
		const description = String((failed[0].error as { description?: string }).description);
		expect(description).toMatch(
			/It was not sent again, since it may have reached the service.*Raise "Timeout" under Request Options/,
		);
		expect(description).not.toMatch(/offline|perhaps|\.\./);
		// The slow request reached the server (which may or may not finish it): it is not sent again.
		// The sandbox counts it once it has slept; a second try would have gone out during the run.
		const postsSeen = () => (sandbox.state.counts.byRoute as IDataObject)['POST /posts'] as number;
		await waitFor(() => postsSeen() >= 3);
		expect(postsSeen()).toBe(3);
		expect(sandbox.state.counts.postsCreated).toBeLessThanOrEqual(3);
	});

	test('a slow server within the Timeout: every item succeeds', async () => {
		fault({ path: '/agents/ping', kind: 'slow', delayMs: 400, count: 3 });
		const out = await batch({ resource: 'account', operation: 'checkConnection' }, 3, {
			concurrency: 3,
		});
		expect(out.filter((item) => item.json.error)).toEqual([]);
	});

	test('malformed JSON and an HTML login page: clear error items', async () => {
		fault({ path: '/brand', kind: 'malformed', count: 1 });
		fault({ path: '/brand', kind: 'login', count: 1 });
		const out = await batch({ resource: 'account', operation: 'getBrandProfile' }, 3);
		expect(out.map((item) => item.json.error ?? 'ok')).toEqual([
			"The service's answer could not be read safely (JSON that does not parse); nothing from it is shown",
			'The Instance URL serves a web page, not the API',
			'ok',
		]);
	});

	test('a 401 in the middle of a batch: that item says so, the others are untouched', async () => {
		fault({ path: '/hooks/score', kind: 'status', status: 401, count: 1, skip: 0 });
		const out = await batch({ resource: 'hook', operation: 'score', text: '={{ $json.text }}' }, 5);
		expect(out.filter((item) => item.json.error)).toHaveLength(1);
		expect(String(out.find((item) => item.json.error)?.json.error)).toContain(
			'rejected the API key',
		);
	});

	test('the totals', () => {
		expect(counts.unhandled).toBe(0);
		expect(counts.duplicatePosts).toBe(0);
		expect(counts.generationsStartedTwice).toBe(0);
		expect(counts.droppedItems).toBe(0);
	});
});
