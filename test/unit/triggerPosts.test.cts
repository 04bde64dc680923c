/**
 * The trigger's Post Published and Post Failed events, through the real PollContext and poll(), in
 * each of n8n's poll engines (test/helpers/pollEngines.cts), against each plausible answer of
 * GET /posts (test/helpers/postService.cts). Totals are printed at the end.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import { READ_RETRY_DELAYS_MS } from '../../nodes/shared/transport';
import {
	LATE_GRACE_MS,
	MAX_FINAL,
	MAX_WAITING,
	decidePosts,
	baselinePosts,
	isPostState,
} from '../../nodes/SocialContentTrigger/postState';
import { readPost } from '../../nodes/shared/shapes';
import { clockNow } from '../helpers/clock.cjs';
import { apiKeyCredentials, pingAnswer, servePing } from '../helpers/fixtures.cjs';
import { activeTrigger, poll, triggerWorkflow } from '../helpers/harness.cjs';
import { ENGINES, SimulatedN8n, type Engine } from '../helpers/pollEngines.cjs';
import { PostService, type PostShape } from '../helpers/postService.cjs';

const READ_TRIES = READ_RETRY_DELAYS_MS.length + 1;
const DAY_MS = 86_400_000;
const POST_EVENTS = ['postPublished', 'postFailed'];
const SHAPES: PostShape[] = ['spec', 'postiz', 'bare'];

type PollResult = INodeExecutionData[][] | null;

/** Counts what fired ("id|state") against the outcomes the service gave after activation. */
class Tally {
	readonly times = new Map<string, number>();
	readonly items: Array<Record<string, unknown>> = [];

	add(...results: PollResult[]): string[] {
		const fired: string[] = [];
		for (const result of results) {
			for (const item of result?.[0] ?? []) {
				const key = `${String(item.json.id)}|${String(item.json.state)}`;
				this.items.push(item.json);
				fired.push(key);
				this.times.set(key, (this.times.get(key) ?? 0) + 1);
			}
		}
		return fired;
	}

	/** `due`: each outcome since activation with how often it happened (a post failing twice fires twice). */
	totals(due: Map<string, number>) {
		const keys = new Set([...due.keys(), ...this.times.keys()]);
		let once = 0;
		let twice = 0;
		let lost = 0;
		let old = 0;
		for (const key of keys) {
			const fired = this.times.get(key) ?? 0;
			const expected = due.get(key) ?? 0;
			if (expected === 0 && fired > 0) old++;
			else if (fired > expected) twice++;
			else if (fired < expected) lost++;
			else once++;
		}
		return { firedOnce: once, firedTwice: twice, lost, firedOld: old };
	}
}

const printed: string[] = [];
afterAll(() => {
	// eslint-disable-next-line no-console
	console.info(`post events in each poll engine:\n${printed.join('\n')}`);
});

function expectExactlyOnce(name: string, totals: ReturnType<Tally['totals']>): void {
	printed.push(
		`  ${name}: fired once ${totals.firedOnce}, fired twice ${totals.firedTwice}, lost ${totals.lost}, old ones fired ${totals.firedOld}`,
	);
	expect({ firedTwice: totals.firedTwice, lost: totals.lost, firedOld: totals.firedOld }).toEqual({
		firedTwice: 0,
		lost: 0,
		firedOld: 0,
	});
}

const outcomes = (service: PostService, extra: string[] = []) => {
	const due = new Map<string, number>();
	for (const key of [...service.outcomesSinceStart, ...extra])
		due.set(key, (due.get(key) ?? 0) + 1);
	return due;
};

beforeEach(() => {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
});

describe.each(ENGINES)("Post events in n8n's %s poll engine", (engine: Engine) => {
	test.each(SHAPES)(
		'%s answers: baseline, sent right after activation, published and failed later, edits and moves, a list failing, a restart, requeued, deactivate/activate',
		async (shape) => {
			const p = `${engine}_${shape}_`;
			const service = new PostService(shape);
			service.serve();
			service.sentLongAgo(`${p}old_`, 40);
			service.sentLongAgo(`${p}ancient_`, 3, 200); // the last one is before the dates the baseline reads
			const now = clockNow();
			service.schedule(`${p}q1`, { dateMs: now + 60_000 });
			service.schedule(`${p}q2`, { dateMs: now + 120_000, channel: 'ch_linkedin' });
			service.schedule(`${p}late`, { dateMs: now - 3 * DAY_MS }); // overdue: goes out late
			service.schedule(`${p}draft`, { draft: true });
			const n8n = new SimulatedN8n(engine, { events: POST_EVENTS }, apiKeyCredentials);
			const tally = new Tally();

			expect(await n8n.activate()).toBeNull(); // the baseline: nothing old fires
			service.startCounting();

			// Right after activation: a waiting post goes out, one is created and sent between polls.
			service.send(`${p}q1`);
			service.sendNow(`${p}n1`);
			expect(tally.add(await n8n.poll()).sort()).toEqual([`${p}n1|published`, `${p}q1|published`]);

			// Later: one fails, the overdue one goes out late.
			service.send(`${p}q2`, 'failed');
			service.send(`${p}late`);
			expect(tally.add(await n8n.poll()).sort()).toEqual([`${p}late|published`, `${p}q2|failed`]);
			const failed = tally.items.find((item) => item.id === `${p}q2`)!;
			expect(failed).toMatchObject({
				state: 'failed',
				channel: { id: 'ch_linkedin', name: 'Acme on LinkedIn', network: 'linkedin' },
				url: null,
			});
			expect(failed.error).toEqual(
				shape === 'spec' ? 'The network refused the post: duplicate content' : null,
			);
			expect(tally.items.find((item) => item.id === `${p}q1`)).toMatchObject({
				state: 'published',
				url: `https://x.example.com/acme/status/${p}q1`,
				channel: { id: 'ch_x', network: 'x' },
			});

			// Edited, moved in time (back, ahead), an old one moved to just now: nothing fires.
			service.edit(`${p}q1`, 'Edited after it went out');
			service.move(`${p}late`, now - DAY_MS);
			service.move(`${p}n1`, now + 3_600_000);
			service.move(`${p}old_5`, clockNow() - 60_000);
			service.move(`${p}ancient_2`, clockNow() - LATE_GRACE_MS - 60_000);
			expect(tally.add(await n8n.poll(), await n8n.poll())).toEqual([]);

			// The list fails for a poll: an error n8n records; what went out meanwhile fires after.
			service.listFailures = READ_TRIES;
			service.sendNow(`${p}b1`);
			tally.add(await n8n.poll());
			expect(n8n.pollErrors).toHaveLength(1);
			expect(tally.add(await n8n.poll())).toEqual([`${p}b1|published`]);

			// A restart: what went out while n8n was down fires once.
			service.sendNow(`${p}c1`, 'failed');
			tally.add(await n8n.restart());
			tally.add(await n8n.poll());
			expect(tally.times.get(`${p}c1|failed`)).toBe(1);

			// Failed, queued again, failed again: two failures, two events; then it goes out.
			service.requeue(`${p}q2`, clockNow() + 60_000);
			tally.add(await n8n.poll());
			service.send(`${p}q2`, 'failed');
			expect(tally.add(await n8n.poll())).toEqual([`${p}q2|failed`]);
			service.requeue(`${p}q2`);
			tally.add(await n8n.poll());
			service.send(`${p}q2`);
			expect(tally.add(await n8n.poll())).toEqual([`${p}q2|published`]);

			// Deactivated while posts go out, activated again: they fire once.
			n8n.deactivate();
			service.send(`${p}draft`);
			service.sendNow(`${p}d1`);
			tally.add(await n8n.activate());
			for (let poll = 0; poll < 3; poll++) tally.add(await n8n.poll());

			expect(n8n.pollErrors).toHaveLength(1);
			expect(n8n.activationErrors).toHaveLength(0);
			const totals = tally.totals(outcomes(service, [`${p}q2|failed`])); // q2 failed twice
			expect(totals.firedOnce).toBe(9);
			expectExactlyOnce(`${engine}, ${shape}`, totals);
		},
		120_000,
	);

	test('answers with no posts in them (empty array, empty body, no list, a null list) move nothing', async () => {
		const p = `${engine}_empty_`;
		const service = new PostService('spec');
		service.serve();
		service.sentLongAgo(`${p}old_`, 30, 5);
		const n8n = new SimulatedN8n(engine, { events: POST_EVENTS }, apiKeyCredentials);
		const tally = new Tally();
		await n8n.activate();
		service.startCounting();
		for (const answer of [
			[200, []],
			[200, ''],
			[200, { data: {} }],
			[200, { posts: null }],
			[200, { ok: true }],
		] as Array<[number, unknown]>) {
			service.listAnswers.push(answer);
			tally.add(await n8n.poll());
			tally.add(await n8n.poll());
		}
		service.sendNow(`${p}new`);
		expect(tally.add(await n8n.poll())).toEqual([`${p}new|published`]);
		expect(n8n.pollErrors).toEqual([]);
		expectExactlyOnce(`${engine}, answers with no posts`, tally.totals(outcomes(service)));
	});

	test('two polls of one trigger at once fire each post once', async () => {
		const p = `${engine}_overlap_`;
		const service = new PostService('postiz');
		service.serve();
		const n8n = new SimulatedN8n(engine, { events: POST_EVENTS }, apiKeyCredentials);
		const tally = new Tally();
		await n8n.activate();
		service.startCounting();
		service.sendNow(`${p}x`);
		service.sendNow(`${p}y`, 'failed');
		tally.add(...(await n8n.overlappingPolls()));
		tally.add(await n8n.poll());
		expectExactlyOnce(`${engine}, overlapping polls`, tally.totals(outcomes(service)));
	});
});

describe('Post events: requests, filters, items', () => {
	test('one request per poll when nothing is new; the dates read are bounded', async () => {
		const service = new PostService('spec');
		service.serve();
		service.sentLongAgo('quiet_old_', 20);
		const trigger = activeTrigger(triggerWorkflow({ events: POST_EVENTS }), apiKeyCredentials);
		await trigger.poll();
		const before = service.requests.length;
		for (let index = 0; index < 5; index++) expect(await trigger.poll()).toBeNull();
		expect(service.requests.length - before).toBe(5);
		const ranges = service.requests
			.map((uri) => new URL(uri, 'https://x').searchParams)
			.map((query) => Date.parse(query.get('endDate')!) - Date.parse(query.get('startDate')!));
		expect(Math.max(...ranges)).toBeLessThanOrEqual(91 * DAY_MS); // the baseline: 90 days back, 1 ahead
		expect(ranges[ranges.length - 1]).toBeLessThanOrEqual(8 * DAY_MS + 60_000); // then 7 days before the last read
	});

	test('the channel filter and the outcome filter; Simplify off gives the service record', async () => {
		const service = new PostService('postiz');
		service.serve();
		const workflow = triggerWorkflow({
			events: ['postFailed'],
			channels: ['ch_linkedin'],
			simplify: false,
		});
		const trigger = activeTrigger(workflow, apiKeyCredentials);
		await trigger.poll();
		service.sendNow('f_x', 'failed', 'ch_x');
		service.sendNow('f_li', 'failed', 'ch_linkedin');
		service.sendNow('p_li', 'published', 'ch_linkedin');
		const fired = (await trigger.poll())?.[0].map((item) => item.json);
		expect(fired).toEqual([
			expect.objectContaining({
				id: 'f_li',
				state: 'ERROR',
				releaseURL: null,
				integration: expect.objectContaining({ id: 'ch_linkedin' }),
			}),
		]);
		// Passed over for good: a later change of filter does not bring them back.
		expect(await trigger.poll()).toBeNull();
	});

	test('a channel named by id alone gets its name from the channel list, read only when a post fires', async () => {
		const service = new PostService('bare');
		service.serve();
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['postPublished'] }),
			apiKeyCredentials,
		);
		await trigger.poll();
		await trigger.poll();
		expect(service.requests).not.toContain('/integrations');
		service.sendNow('b1', 'published', 'ch_linkedin');
		const [item] = (await trigger.poll())![0];
		expect(item.json).toEqual({
			id: 'b1',
			state: 'published',
			channel: { id: 'ch_linkedin', name: 'Acme on LinkedIn', network: 'linkedin' },
			date: expect.stringMatching(/Z$/),
			publishedAt: expect.stringMatching(/Z$/),
			url: 'https://x.example.com/acme/status/b1',
			error: null,
			text: 'Post b1',
		});
		expect(item.pairedItem).toBeUndefined();
	});

	test('Fetch Test Event returns the latest matching post and leaves the state alone', async () => {
		const service = new PostService('spec');
		service.serve();
		service.sentLongAgo('fte_', 10, 20);
		const workflow = triggerWorkflow({ events: ['postPublished'] });
		const result = await poll(workflow, apiKeyCredentials, 'manual');
		expect(result?.[0]).toHaveLength(1);
		expect(result?.[0][0].json).toMatchObject({ id: 'fte_0', state: 'published' }); // fte_0 is the newest
		expect(workflow.staticData).toEqual({});
	});

	test('both kinds of events in one trigger: a failing post list fails the poll and saves nothing for either', async () => {
		const service = new PostService('spec');
		service.serve();
		nock('https://app.example.com')
			.get('/api/public/v1/studio/generations')
			.query(true)
			.reply(200, [{ id: 'g_old', status: 'done' }])
			.persist();
		const workflow = triggerWorkflow({ events: ['done', ...POST_EVENTS] });
		const trigger = activeTrigger(workflow, apiKeyCredentials);
		await trigger.poll();
		const saved = JSON.stringify(workflow.staticData);
		expect(Object.keys(workflow.getStaticData('node', workflow.getNode('Trigger')!))).toEqual([
			'posts',
			'generations',
		]);
		service.listFailures = READ_TRIES;
		await expect(trigger.poll()).rejects.toThrow(/500|down/);
		expect(JSON.stringify(workflow.staticData)).toEqual(saved);
	});
});

describe('post state', () => {
	test('at its caps it stays under 32 KiB', () => {
		const posts = [
			...Array.from(
				{ length: MAX_FINAL + 500 },
				(_, index) =>
					readPost({
						id: `post_${'x'.repeat(40)}_${index}`,
						state: 'PUBLISHED',
						publishDate: new Date().toISOString(),
					})!,
			),
			...Array.from(
				{ length: MAX_WAITING + 500 },
				(_, index) =>
					readPost({
						id: `wait_${'y'.repeat(40)}_${index}`,
						state: 'QUEUE',
						publishDate: new Date().toISOString(),
					})!,
			),
		];
		const state = decidePosts(baselinePosts([], clockNow()), posts, clockNow()).next;
		const bytes = JSON.stringify({ posts: state }).length;
		expect(bytes).toBeLessThanOrEqual(32 * 1024);
		expect(isPostState(state)).toBe(true);
		printed.push(
			`  post state at its caps (${MAX_FINAL} outcomes, ${MAX_WAITING} waiting): ${bytes} bytes`,
		);
	});
});

describe('post outcomes the model search found (#38)', () => {
	const at = Date.UTC(2026, 10, 25, 12);
	const post = (id: string, state: string, msBefore: number) =>
		readPost({ id, state, publishDate: new Date(at - msBefore).toISOString() })!;

	test(`${MAX_FINAL + 7} outcomes at activation, listed newest first: the newest are kept, so none of them fires later`, () => {
		// One a second, the newest 900 inside the 15-minute grace before the read.
		const posts = Array.from({ length: MAX_FINAL + 7 }, (_, index) =>
			post(`p${index}`, 'PUBLISHED', (index + 1) * 1000),
		);
		const start = baselinePosts(posts, at);
		const again = decidePosts(start, posts, at + 60_000);
		expect(again.fired.map((record) => record.id)).toEqual([]);
	});

	test('a post read failed, then retried and published with its date kept: Published fires', () => {
		const day = 86_400_000;
		// Failed before activation, due two days ago; retried and published after it.
		const start = baselinePosts([post('r', 'ERROR', 2 * day)], at - day);
		const published = decidePosts(start, [post('r', 'PUBLISHED', 2 * day)], at);
		expect(published.fired.map((record) => `${record.id}|${record.status}`)).toEqual([
			'r|published',
		]);
		expect(
			decidePosts(published.next, [post('r', 'PUBLISHED', 2 * day)], at + 60_000).fired,
		).toEqual([]);
	});
});
