/**
 * The node, through n8n-core's WorkflowExecute, against the sandbox service (a real HTTP server on
 * 127.0.0.1): every resource, and the faults the sandbox injects.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { MAX_ATTEMPTS } from '../../nodes/SocialContentTrigger/generationState';
import { startGeneration } from '../helpers/parameters.cjs';
import { createSandbox, type Sandbox } from '../helpers/sandbox.cjs';
import { waitFor } from '../helpers/waitFor.cjs';
import {
	ACTION_NODE_TYPE,
	activeTrigger,
	poll,
	runChain,
	START_NODE_TYPE,
	triggerWorkflow,
} from '../helpers/harness.cjs';

let sandbox: Sandbox;
let url: string;
let credentials: Record<string, ICredentialDataDecryptedObject>;

beforeAll(async () => {
	nock.enableNetConnect('127.0.0.1');
	sandbox = createSandbox({ queuedMs: 50, runningMs: 150 });
	url = await sandbox.listen();
	credentials = { socialContentApi: { instanceUrl: url, apiKey: 'sk_sandbox_demo_key' } };
});
afterAll(async () => {
	await sandbox.close();
	nock.restore();
});
beforeEach(() => sandbox.reset());

async function run(
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
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
		{ credentials, input: items, settings: { timezone: 'UTC' } },
	);
	return { result, items: result.error ? [] : result.output('Node').map((item) => item.json) };
}

const fault = (body: IDataObject) =>
	(sandbox.state.faults as IDataObject[]).push({ count: 1, ...body });

describe('against the sandbox', () => {
	test('account: ping and brand (found: false, then the profile)', async () => {
		expect(
			(await run({ resource: 'account', operation: 'checkConnection' })).items[0],
		).toMatchObject({ ok: true });
		expect((await run({ resource: 'account', operation: 'getBrandProfile' })).items[0]).toEqual({
			found: false,
		});
		expect(
			(await run({ resource: 'account', operation: 'getBrandProfile' })).items[0],
		).toMatchObject({ found: true });
	});

	test('hook: score and generate', async () => {
		const scored = await run({
			resource: 'hook',
			operation: 'score',
			text: 'Stop: read this',
			platform: 'tiktok',
		});
		expect(scored.items[0]).toMatchObject({ benchmark: { estimated: true } });
		const generated = await run({
			resource: 'hook',
			operation: 'generate',
			topic: 'tea',
			count: 3,
		});
		expect(generated.items.map((hook) => hook.hook)).toEqual([
			'Hook 1 about tea',
			'Hook 2 about tea',
			'Hook 3 about tea',
		]);
	});

	test('studio: formats, start with wait and download, get, list, credits', async () => {
		expect((await run({ resource: 'studio', operation: 'listFormats' })).items).toHaveLength(8);
		const started = await run(
			startGeneration(
				'slideshow',
				{ hook: '5 habits' },
				{ waitForCompletion: true, pollInterval: 0.1, options: { maxCredits: 10 } },
			),
		);
		expect(started.result.error).toBeUndefined();
		const [item] = started.result.output('Node');
		expect(item.json).toMatchObject({ status: 'done', credits: 5 });
		expect(Object.keys(item.binary ?? {})).toEqual(['output_0', 'output_1', 'output_2']);
		expect(item.binary?.output_0.mimeType).toBe('image/png');
		const id = String(item.json.id);
		expect(
			(
				await run({
					resource: 'studio',
					operation: 'getGeneration',
					generationId: { __rl: true, mode: 'id', value: id },
				})
			).items[0],
		).toMatchObject({ id, status: 'done' });
		expect(
			(
				await run({
					resource: 'studio',
					operation: 'listGenerations',
					status: 'done',
					returnAll: true,
				})
			).items.map((g) => g.id),
		).toEqual([id]);
		expect((await run({ resource: 'studio', operation: 'getCredits' })).items[0]).toEqual({
			credits: 95,
		});
	});

	test('studio: 402 reserves nothing, and the generation is started once', async () => {
		sandbox.config.credits = 3;
		sandbox.reset();
		const { result } = await run(startGeneration('slideshow', { hook: 'x' }));
		expect(result.error?.message).toBe(
			'Not enough credits for this request. Nothing was reserved or charged',
		);
		expect(sandbox.state.credits).toBe(3);
		expect(sandbox.state.counts.generationsStarted).toBe(0);
		sandbox.config.credits = 100;
	});

	test('channel: list, connect URL, is connected, analytics, post analytics, disconnect', async () => {
		expect(
			(await run({ resource: 'channel', operation: 'list' })).items.map((c) => c.identifier),
		).toEqual(['x', 'linkedin', 'instagram']);
		expect(
			(await run({ resource: 'channel', operation: 'getConnectUrl', provider: 'linkedin' }))
				.items[0].url,
		).toMatch(/connect\/linkedin/);
		expect((await run({ resource: 'channel', operation: 'isConnected' })).items[0]).toEqual({
			connected: true,
		});
		const channel = { __rl: true, mode: 'list', value: 'ch_x' };
		expect(
			(await run({ resource: 'channel', operation: 'getAnalytics', channel, date: '7' })).items[0],
		).toMatchObject({ label: 'Impressions' });
		expect(
			(await run({ resource: 'channel', operation: 'getPostAnalytics', postId: 'p1', date: '7' }))
				.items,
		).toHaveLength(2);
		expect(
			(await run({ resource: 'channel', operation: 'disconnect', channel })).items[0],
		).toMatchObject({ id: 'ch_x', disconnected: true });
	});

	test('media and post: import, list, create (2 channels), list, find slot, delete the group', async () => {
		const imported = (
			await run({
				resource: 'media',
				operation: 'importFromUrl',
				url: 'https://example.com/pic.png',
			})
		).items[0];
		expect(
			(await run({ resource: 'media', operation: 'list', returnAll: true })).items.map((m) => m.id),
		).toContain(imported.id);
		const created = await run({
			resource: 'post',
			operation: 'create',
			type: 'schedule',
			date: '2030-01-02T10:00:00',
			channels: ['ch_x', 'ch_linkedin'],
			content: { parts: [{ text: 'Hello' }] },
			media: { files: [{ source: 'library', mediaId: imported.id as string }] },
		});
		expect(created.result.error).toBeUndefined();
		expect(created.items.map((p) => p.integration)).toEqual(['ch_x', 'ch_linkedin']);
		const listed = await run({
			resource: 'post',
			operation: 'list',
			startDate: '2030-01-01',
			endDate: '2030-01-03',
		});
		expect(listed.items.map((p) => (p.settings as IDataObject).__type)).toEqual(['x', 'linkedin']);
		expect(
			(
				await run({
					resource: 'post',
					operation: 'findFreeSlot',
					channel: { __rl: true, mode: 'id', value: 'ch_x' },
				})
			).items[0].date,
		).toMatch(/Z$/);
		await run({
			resource: 'post',
			operation: 'delete',
			postId: { __rl: true, mode: 'id', value: created.items[0].postId as string },
		});
		expect(sandbox.state.posts).toHaveLength(0);
	});

	test('an X post with no setting at all is accepted: Who Can Reply goes as Everyone', async () => {
		const { result } = await run({
			resource: 'post',
			operation: 'create',
			type: 'now',
			channels: ['ch_x'],
			content: { parts: [{ text: 'Hi' }] },
		});
		expect(result.error).toBeUndefined();
		expect(JSON.parse(String(sandbox.state.posts[0].settings))).toEqual({
			who_can_reply_post: 'everyone',
			__type: 'x',
		});
	});

	test('a 400 from the sandbox lists its field errors', async () => {
		const { result } = await run({
			resource: 'post',
			operation: 'create',
			type: 'now',
			channels: ['ch_x'],
			content: { parts: [{ text: 'Hi' }] },
			media: { files: [{ source: 'idPath', id: 'med_gone', path: '/uploads/gone.png' }] },
		});
		expect(result.error?.message).toBe(
			'The service rejected the request: Validation failed; posts[0].value.image: unknown media med_gone',
		);
	});

	test('the sandbox received the raw key in every request, never "Bearer"', async () => {
		await run({ resource: 'account', operation: 'checkConnection' });
		expect(sandbox.state.authHeaders).toEqual(['sk_sandbox_demo_key']);
	});

	test('faults: a reset and a 502 HTML page on reads are retried; malformed JSON and a login page fail clearly', async () => {
		fault({ path: '/agents/ping', kind: 'reset' });
		fault({ path: '/agents/ping', kind: 'html500' });
		expect(
			(await run({ resource: 'account', operation: 'checkConnection' })).items[0],
		).toMatchObject({ ok: true });
		fault({ path: '/brand', kind: 'malformed' });
		expect(
			(await run({ resource: 'account', operation: 'getBrandProfile' })).result.error?.message,
		).toBe(
			"The service's answer could not be read safely (JSON that does not parse); nothing from it is shown",
		);
		fault({ path: '/brand', kind: 'login' });
		expect(
			(await run({ resource: 'account', operation: 'getBrandProfile' })).result.error?.message,
		).toBe('The Instance URL serves a web page, not the API');
	});

	test('a proxy that redirects a create (302): not followed as a GET, nothing created, the error names the address', async () => {
		fault({
			path: '/posts',
			method: 'POST',
			kind: 'redirect',
			status: 302,
			location: '/api/public/v1/posts?from=proxy',
		});
		const { result } = await run({
			resource: 'post',
			operation: 'create',
			type: 'now',
			channels: ['ch_linkedin'],
			content: { parts: [{ text: 'Hi' }] },
		});
		expect(result.error?.message).toBe(
			'The service answered POST /posts with a redirect (302) to /api/public/v1/posts?from=proxy; it may already have done it (a 302 usually follows a request that was carried out): check before running it again',
		);
		expect((sandbox.state.counts.byRoute as IDataObject)['GET /posts'] ?? 0).toBe(0);
		expect(sandbox.state.posts).toHaveLength(0);
	});

	test('a reset on a create: one attempt, no duplicate post', async () => {
		fault({ path: '/posts', method: 'POST', kind: 'reset' });
		const { result } = await run({
			resource: 'post',
			operation: 'create',
			type: 'draft',
			channels: ['ch_linkedin'],
			content: { parts: [{ text: 'Hi' }] },
		});
		expect(result.error?.message).toMatch(
			/^Could not reach 127\.0\.0\.1:\d+: the connection was reset$/,
		);
		expect((sandbox.state.counts.byRoute as IDataObject)['POST /posts'] ?? 0).toBe(0);
		expect(sandbox.state.posts).toHaveLength(0);
	});

	test('a 429 burst on hooks: waits as told, every item succeeds', async () => {
		sandbox.config.buckets = { ...(sandbox.config.buckets as IDataObject), hooks: { limit: 20 } };
		const items = Array.from({ length: 45 }, (_, i) => ({ text: `hook ${i}` }));
		const { result, items: out } = await run(
			{ resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
			items,
		);
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(45);
		expect(Number(sandbox.state.counts.rateLimited)).toBeGreaterThan(0);
	});

	test('a batch with Concurrent Requests near the bucket rate: every item succeeds, in order', async () => {
		const items = Array.from({ length: 80 }, (_, i) => ({ text: `hook ${i}` }));
		const { result, items: out } = await run(
			{
				resource: 'hook',
				operation: 'score',
				text: '={{ $json.text }}',
				requestOptions: { concurrency: 8 },
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(out.map((item) => item.rewrite)).toEqual(items.map((item) => `3 ways: ${item.text}`));
	});

	test('503 switch: a disabled feature says it is not configured', async () => {
		sandbox.config.disabled = ['studio'];
		expect(
			(await run({ resource: 'studio', operation: 'listFormats' })).result.error?.message,
		).toBe(
			'This feature is not configured on this instance (503): studio is not configured on this instance',
		);
		sandbox.config.disabled = [];
	});

	test('trigger: baseline, then fires once when a generation finishes', async () => {
		const workflow = triggerWorkflow({ events: ['done'], downloadOutputs: true });
		expect(await poll(workflow, credentials)).toBeNull();
		await run(startGeneration('wall_of_text', { hook: 'x' }));
		// It finishes a few hundred ms later (sooner than a loaded machine may poll): poll until it fires.
		const fired = await waitFor(() => poll(workflow, credentials), { everyMs: 100 });
		expect(fired?.[0]).toHaveLength(1);
		expect(fired?.[0][0].binary?.output_0.mimeType).toBe('image/png');
		expect(await poll(workflow, credentials)).toBeNull();
	});

	test('trigger against a list with no timestamps, completion order, pages of 2: out-of-order, a 404 output, a restart', async () => {
		Object.assign(sandbox.config, {
			generationTimestamps: false,
			generationOrder: 'completion',
			generationPageSize: 2,
			queuedMs: 1e9,
		});
		try {
			const started = await run(startGeneration('wall_of_text', { hook: '={{ $json.hook }}' }), [
				{ hook: 'a' },
				{ hook: 'b' },
				{ hook: 'c' },
				{ hook: 'd' },
			]);
			const [a, b, c, d] = started.items.map((item) => String(item.id));
			const parameters = { events: ['done'], downloadOutputs: true };
			let workflow = triggerWorkflow(parameters);
			let trigger = activeTrigger(workflow, credentials);
			const fired: string[] = [];
			const firedBy = async () => {
				const result = await trigger.poll();
				const items = result?.[0] ?? [];
				fired.push(...items.map((item) => String(item.json.id)));
				return items;
			};
			expect(await firedBy()).toEqual([]); // baseline: four queued, none finished
			sandbox.finish([d]);
			expect((await firedBy()).map((item) => item.json.id)).toEqual([d]);
			sandbox.config.missingOutputs = [b];
			sandbox.finish([a, b]);
			expect((await firedBy()).map((item) => item.json.id)).toEqual([a]);
			workflow = triggerWorkflow(
				parameters,
				JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
			);
			trigger = activeTrigger(workflow, credentials, 'init');
			sandbox.finish([c]);
			expect((await firedBy()).map((item) => item.json.id)).toEqual([c]);
			for (let attempt = 3; attempt < MAX_ATTEMPTS; attempt++) expect(await firedBy()).toEqual([]);
			const [broken] = await firedBy();
			expect(broken.json).toMatchObject({
				id: b,
				error: expect.stringMatching(/Not found: GET \/uploads\/.+ \(404\)/),
			});
			expect(broken.binary).toBeUndefined();
			expect(await firedBy()).toEqual([]);
			expect(fired.sort()).toEqual([a, b, c, d].sort());
		} finally {
			Object.assign(sandbox.config, {
				generationTimestamps: true,
				generationOrder: 'creation',
				generationPageSize: 0,
				queuedMs: 50,
				missingOutputs: [],
			});
		}
	});
});
