import type { IDataObject, INodeParameters, WorkflowActivateMode } from 'n8n-workflow';
import nock from 'nock';

import { READ_RETRY_DELAYS_MS } from '../../nodes/shared/transport';
import {
	baseline,
	keyOf,
	KNOWN_RUN,
	MAX_ATTEMPTS,
	MAX_DUE,
	MAX_PENDING,
	MAX_SCAN_READ,
	MAX_SEEN,
	settle,
	STATE_MAX_BYTES,
} from '../../nodes/SocialContentTrigger/generationState';
import { KeyMemory } from '../../nodes/SocialContentTrigger/idMemory';
import { clockNow } from '../helpers/clock.cjs';
import {
	APP_URL,
	apiKeyCredentials,
	oauth2Credentials,
	pingAnswer,
	servePing,
} from '../helpers/fixtures.cjs';
import {
	GENERATIONS_PATH as GEN,
	GenerationService,
	type ListShape,
} from '../helpers/generationService.cjs';
import { activeTrigger, poll, triggerWorkflow } from '../helpers/harness.cjs';

type Trigger = ReturnType<typeof activeTrigger>;
type Fired = Awaited<ReturnType<Trigger['poll']>>;

const ids = (result: Fired) => (result?.[0] ?? []).map((item) => String(item.json.id));

/**
 * A timeline against one service: each step changes the service, then polls (or restarts n8n, or
 * lets the list read fail), and says exactly which ids that poll fires. At the end: every
 * generation that finished after activation fired once, none twice, none that finished before.
 */
interface Step {
	act?: (service: GenerationService) => void;
	/** n8n restarts: a new workflow from the saved static data, activated with 'init'. */
	restart?: boolean;
	/** The list read fails with 500 (every try of it) during this step's poll: the poll throws. */
	failList?: boolean;
	/** Ids this poll fires, in order; 'throws' for a poll that fails. */
	fires: string[] | 'throws';
}

interface Totals {
	firedOnce: number;
	firedTwice: number;
	lost: number;
	firedOld: number;
}

async function runTimeline(
	shape: ListShape,
	setup: (service: GenerationService) => void,
	steps: Step[],
	parameters: INodeParameters = { events: ['done'] },
): Promise<Totals & { service: GenerationService; items: IDataObject[] }> {
	const service = new GenerationService(shape);
	service.serve();
	setup(service);
	let workflow = triggerWorkflow(parameters);
	let trigger = activeTrigger(workflow, apiKeyCredentials);
	expect(await trigger.poll()).toBeNull(); // the baseline
	service.startCounting();
	const times = new Map<string, number>();
	const items: IDataObject[] = [];
	for (const [index, step] of steps.entries()) {
		step.act?.(service);
		if (step.restart) {
			workflow = triggerWorkflow(
				parameters,
				JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
			);
			trigger = activeTrigger(workflow, apiKeyCredentials, 'init');
		}
		service.listFailures = step.failList ? READ_TRIES : 0;
		if (step.fires === 'throws') {
			const before = JSON.stringify(workflow.staticData);
			await expect(trigger.poll()).rejects.toThrow();
			expect(JSON.stringify(workflow.staticData)).toBe(before);
			continue;
		}
		const fired = await trigger.poll();
		for (const item of fired?.[0] ?? []) items.push(item.json);
		const firedIds = ids(fired);
		for (const id of firedIds) times.set(id, (times.get(id) ?? 0) + 1);
		expect({ step: index, fired: firedIds }).toEqual({ step: index, fired: step.fires });
	}
	const statuses = (parameters.events as string[]) ?? ['done'];
	const due = [...service.finishedSinceStart]
		.filter(([, status]) => statuses.includes(status))
		.map(([id]) => id);
	const totals = {
		firedOnce: [...times.values()].filter((n) => n === 1).length,
		firedTwice: [...times.values()].filter((n) => n > 1).length,
		lost: due.filter((id) => !times.has(id)).length,
		firedOld: [...times.keys()].filter((id) => !due.includes(id)).length,
	};
	return { ...totals, service, items };
}

/** The transport tries a read this many times before the poll fails. */
const READ_TRIES = READ_RETRY_DELAYS_MS.length + 1;

const quiet = (polls: number): Step[] => Array.from({ length: polls }, () => ({ fires: [] }));

const NO_TIMESTAMPS: ListShape = { timestamps: 'none', order: 'creation' };
const SHAPES: Array<[string, ListShape]> = [
	['no timestamps, unpaged, creation order', NO_TIMESTAMPS],
	[
		'no timestamps, paged 20, creation order',
		{ timestamps: 'none', order: 'creation', pageSize: 20 },
	],
	[
		'no timestamps, unpaged, completion order, unfinished on top',
		{ timestamps: 'none', order: 'completion', pendingAt: 'top' },
	],
	[
		'no timestamps, paged 20, completion order, unfinished at the bottom',
		{ timestamps: 'none', order: 'completion', pendingAt: 'bottom', pageSize: 20 },
	],
	['finish times, unpaged, creation order', { timestamps: 'finish', order: 'creation' }],
	[
		'finish times, paged 20, completion order',
		{ timestamps: 'finish', order: 'completion', pageSize: 20 },
	],
	[
		'no timestamps, list cut to the newest 100',
		{ timestamps: 'none', order: 'creation', window: 100 },
	],
	['no timestamps, sorted by last update', { timestamps: 'none', order: 'update' }],
];

const scenarioTotals: string[] = [];
afterAll(() => {
	// eslint-disable-next-line no-console
	console.info(`trigger scenarios:\n${scenarioTotals.join('\n')}`);
});

function report(name: string, totals: Totals): void {
	scenarioTotals.push(
		`  ${name}: fired once ${totals.firedOnce}, fired twice ${totals.firedTwice}, lost ${totals.lost}, old ones fired ${totals.firedOld}`,
	);
	expect({ firedTwice: totals.firedTwice, lost: totals.lost, firedOld: totals.firedOld }).toEqual({
		firedTwice: 0,
		lost: 0,
		firedOld: 0,
	});
}

beforeEach(() => {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
});

describe('Social Content Trigger: exactly once, whatever the list looks like', () => {
	describe.each(SHAPES)('%s', (name, shape) => {
		test('2,500 done, then 3 new: exactly those 3; 20 more polls: nothing; a restart and a failed poll between', async () => {
			const totals = await runTimeline(shape, (s) => s.createDoneMany('old_', 2500), [
				...quiet(2),
				{
					act: (s) => ['new_1', 'new_2', 'new_3'].forEach((id) => s.createDone(id)),
					fires: ['new_1', 'new_2', 'new_3'],
				},
				...quiet(10),
				{ act: (s) => s.createDone('new_4'), failList: true, fires: 'throws' },
				{ restart: true, act: (s) => s.createDone('new_5'), fires: ['new_4', 'new_5'] },
				...quiet(10),
			]);
			expect(totals.firedOnce).toBe(5);
			report(`${name}: 2,500 then 3 new`, totals);
		});

		test('out-of-order completion: created first, finished last, past many newer ones', async () => {
			const newer = Array.from({ length: 80 }, (_, i) => `newer_${i}`);
			const totals = await runTimeline(shape, (s) => s.createDoneMany('old_', 300), [
				{ act: (s) => ['slow_a', 'slow_b'].forEach((id) => s.create(id)), fires: [] },
				{ act: (s) => s.createDone('fast'), fires: ['fast'] },
				{ act: (s) => newer.forEach((id) => s.createDone(id)), fires: newer },
				{ restart: true, fires: [] },
				{ act: (s) => s.finish('slow_b'), fires: ['slow_b'] },
				{ act: (s) => s.finish('slow_a'), failList: true, fires: 'throws' },
				{ fires: ['slow_a'] },
				...quiet(3),
			]);
			report(`${name}: out-of-order completion`, totals);
		});

		test('old generations change (updatedAt, notes, outputs moved) and some are deleted: nothing fires', async () => {
			const totals = await runTimeline(shape, (s) => s.createDoneMany('old_', 400), [
				{
					act: (s) => ['old_399', 'old_398', 'old_5', 'old_200'].forEach((id) => s.touch(id)),
					fires: [],
				},
				{ act: (s) => ['old_399', 'old_10'].forEach((id) => s.remove(id)), fires: [] },
				{ act: (s) => s.createDone('after'), fires: ['after'] },
				{ act: (s) => s.touch('after'), fires: [] },
				...quiet(3),
			]);
			report(`${name}: old ones change`, totals);
		});
	});

	test('a list re-sorted by update time, with finish times: touched old generations do not fire', async () => {
		const shape: ListShape = { timestamps: 'finish', order: 'update' };
		const totals = await runTimeline(shape, (s) => s.createDoneMany('old_', 300), [
			{ act: (s) => ['old_3', 'old_150'].forEach((id) => s.touch(id)), fires: [] },
			{ act: (s) => s.createDone('new'), fires: ['new'] },
			...quiet(3),
		]);
		report('update order, finish times: touched', totals);
	});

	test('Generation Failed too: both statuses, oldest first, from pending and from new', async () => {
		const totals = await runTimeline(
			NO_TIMESTAMPS,
			(s) => s.createDoneMany('old_', 10),
			[
				{ act: (s) => s.create('slow'), fires: [] },
				{
					act: (s) => {
						s.createDone('ok');
						s.createDone('broke', 'failed');
					},
					fires: ['ok', 'broke'],
				},
				{ act: (s) => s.finish('slow', 'failed'), fires: ['slow'] },
			],
			{ events: ['done', 'failed'] },
		);
		report('done and failed', totals);
	});

	test('only Generation Finished: failed ones are passed over, pending or new', async () => {
		const totals = await runTimeline(NO_TIMESTAMPS, () => undefined, [
			{ act: (s) => s.create('slow'), fires: [] },
			{
				act: (s) => {
					s.createDone('broke', 'failed');
					s.finish('slow', 'failed');
					s.createDone('ok');
				},
				fires: ['ok'],
			},
			...quiet(2),
		]);
		report('done only', totals);
	});

	test('the format filter', async () => {
		const totals = await runTimeline(
			NO_TIMESTAMPS,
			(s) => s.createDone('seed'),
			[
				{
					act: (s) => {
						s.createDone('slides', 'done', 'slideshow');
						s.createDone('voice', 'done', 'voiceover');
					},
					fires: ['voice'],
				},
				...quiet(2),
			],
			{ events: ['done'], formats: ['voiceover'] },
		);
		expect(totals.firedOnce).toBe(1);
	});
});

describe('Social Content Trigger: one bad generation never blocks the others', () => {
	test(`outputs that answer 404 for ever (Download Outputs on): the others come out; this one after ${MAX_ATTEMPTS} polls with an error`, async () => {
		const steps: Step[] = [
			{
				act: (s) => {
					s.createDone('a');
					s.createDone('gone');
					s.createDone('b');
					s.missingFiles.add('gone');
				},
				fires: ['a', 'b'],
			},
			{ act: (s) => s.createDone('c'), fires: ['c'] },
			{ restart: true, fires: [] },
			...quiet(MAX_ATTEMPTS - 4),
			{ fires: ['gone'] },
			...quiet(3),
		];
		const result = await runTimeline(NO_TIMESTAMPS, (s) => s.createDoneMany('old_', 5), steps, {
			events: ['done'],
			downloadOutputs: true,
		});
		const gone = result.items.find((item) => item.id === 'gone');
		expect(gone?.error).toMatch(
			new RegExp(
				`^Could not read this generation's details or outputs after ${MAX_ATTEMPTS} tries: Not found: GET /uploads/gone.png \\(404\\)`,
			),
		);
		expect(
			result.items.filter((item) => item.id !== 'gone').every((item) => item.error === undefined),
		).toBe(true);
		report('outputs 404 for ever', result);
	});

	test('a read by id that fails for 3 polls, then works: it fires on the 4th, normally', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', outputsInList: false };
		const result = await runTimeline(
			shape,
			(s) => s.createDoneMany('old_', 5),
			[
				{
					act: (s) => {
						s.createDone('flaky');
						s.createDone('fine');
						s.detailFailures.set('flaky', 3 * 3);
					},
					fires: ['fine'],
				},
				{ fires: [] },
				{ restart: true, fires: [] },
				{ fires: ['flaky'] },
				...quiet(2),
			],
			{ events: ['done'], downloadOutputs: true },
		);
		expect(result.items.find((item) => item.id === 'flaky')?.error).toBeUndefined();
		report('detail read fails 3 polls', result);
	});

	test('a pending generation the list no longer shows is asked for by id; deleted ones are dropped', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', window: 30 };
		const result = await runTimeline(shape, () => undefined, [
			{
				act: (s) => {
					s.create('slow');
					s.create('doomed');
				},
				fires: [],
			},
			{
				act: (s) => s.createDoneMany('burst_', 40),
				fires: Array.from({ length: 30 }, (_, i) => `burst_${i + 10}`),
			},
			{
				act: (s) => {
					s.finish('slow');
					s.remove('doomed');
				},
				fires: ['slow'],
			},
			...quiet(2),
		]);
		expect(result.service.requests.filter((uri) => uri === `${GEN}/doomed`)).toHaveLength(2);
		// The 10 oldest of the burst never showed in a list cut to 30: the one case no client can see.
		expect(result.lost).toBe(10);
	});
});

describe('Social Content Trigger: activation never leaves a dead trigger', () => {
	const ACTIVATIONS: WorkflowActivateMode[] = ['init', 'activate', 'leadershipChange'];

	test.each(ACTIVATIONS)(
		'with state, %s while the service fails: no throw, state unchanged, the next poll catches up',
		async (activation) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDone('seed');
			const first = triggerWorkflow({ events: ['done'] });
			expect(await activeTrigger(first, apiKeyCredentials).poll()).toBeNull();
			const saved = JSON.parse(JSON.stringify(first.staticData)) as IDataObject;
			service.createDone('while_down');
			const workflow = triggerWorkflow({ events: ['done'] }, saved);
			const trigger = activeTrigger(workflow, apiKeyCredentials, activation);
			service.listFailures = READ_TRIES;
			expect(await trigger.poll()).toBeNull();
			expect(workflow.staticData).toEqual(saved);
			// Scheduled polls after it report failures as errors (an error execution; the poller stays).
			service.listFailures = READ_TRIES;
			await expect(trigger.poll()).rejects.toThrow(/500/);
			expect(ids(await trigger.poll())).toEqual(['while_down']);
		},
	);

	test.each(ACTIVATIONS)(
		'first activation (%s) while the service fails: no throw; the first poll that reaches it sets the baseline',
		async (activation) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDone('before');
			const workflow = triggerWorkflow({ events: ['done'] });
			const trigger = activeTrigger(workflow, apiKeyCredentials, activation);
			service.listFailures = READ_TRIES;
			expect(await trigger.poll()).toBeNull();
			expect(JSON.stringify(workflow.staticData)).not.toContain('generations');
			expect(await trigger.poll()).toBeNull(); // baseline: 'before' does not fire
			service.createDone('after');
			expect(ids(await trigger.poll())).toEqual(['after']);
		},
	);

	test.each([
		['a rejected credential', 401, /rejected the API key/],
		['an Instance URL that serves a web page', 0, /serves a web page/],
	])('a person activating with %s still gets a clear error', async (_name, status, message) => {
		const workflow = triggerWorkflow({ events: ['done'] });
		if (status) nock(APP_URL).get(GEN).query(true).reply(status, { msg: 'Unauthorized' }).persist();
		else
			nock(APP_URL)
				.get(GEN)
				.query(true)
				.reply(200, '<html>login</html>', { 'Content-Type': 'text/html' })
				.persist();
		await expect(activeTrigger(workflow, apiKeyCredentials, 'activate').poll()).rejects.toThrow(
			message,
		);
		// At n8n's start nobody is watching: the trigger stays scheduled and each poll reports it.
		const atStart = activeTrigger(workflow, apiKeyCredentials, 'init');
		expect(await atStart.poll()).toBeNull();
		await expect(atStart.poll()).rejects.toThrow(message);
	});
});

describe('Social Content Trigger: the rest of its contract', () => {
	test('one request per poll when nothing is new; the list is read unfiltered, so pending ones are seen', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany('old_', 30);
		const trigger = activeTrigger(triggerWorkflow({ events: ['done'] }), apiKeyCredentials);
		await trigger.poll();
		await trigger.poll();
		await trigger.poll();
		expect(service.requests).toEqual([GEN, GEN, GEN]);
	});

	test('a new generation fires with its outputs (and its files with Download Outputs)', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['done'], downloadOutputs: true }),
			apiKeyCredentials,
		);
		await trigger.poll();
		service.createDone('new');
		const fired = await trigger.poll();
		expect(fired?.[0]).toEqual([
			{
				json: {
					id: 'new',
					status: 'done',
					format: 'slideshow',
					credits: 3,
					outputs: [{ id: 'm_new', path: '/uploads/new.png' }],
				},
				binary: {
					output_0: expect.objectContaining({ mimeType: 'image/png', fileName: 'new.png' }),
				},
			},
		]);
	});

	test('Simplify off: the generation with every field, outputs with their location too', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['done'], simplify: false }),
			apiKeyCredentials,
		);
		await trigger.poll();
		service.createDone('new');
		expect((await trigger.poll())?.[0][0].json).toEqual({
			id: 'new',
			status: 'done',
			format: 'slideshow',
			credits: 3,
			outputs: [{ id: 'm_new', path: '/uploads/new.png', location: '/uploads/new.png' }],
		});
	});

	test('list entries without outputs or format are read by id when they fire', async () => {
		const service = new GenerationService({
			timestamps: 'none',
			order: 'creation',
			outputsInList: false,
		});
		service.serve();
		service.createDone('seed');
		const trigger = activeTrigger(triggerWorkflow({ events: ['done'] }), apiKeyCredentials);
		await trigger.poll();
		service.createDone('bare');
		expect((await trigger.poll())?.[0][0].json).toMatchObject({
			id: 'bare',
			outputs: [{ path: '/uploads/bare.png' }],
		});
		expect(service.requests).toContain(`${GEN}/bare`);
	});

	test('manual mode (Fetch Test Event) returns the latest match and leaves the state alone', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone('older');
		service.createDone('latest');
		const workflow = triggerWorkflow({ events: ['done'] });
		expect(ids(await poll(workflow, apiKeyCredentials, 'manual'))).toEqual(['latest']);
		expect(workflow.staticData).toEqual({});
		expect(await activeTrigger(workflow, apiKeyCredentials).poll()).toBeNull();
	});

	test('the OAuth2 credential works the same, token sent raw', async () => {
		const scope = nock(APP_URL, { reqheaders: { authorization: 'scapp_SECRETTOKEN_7c1e0b' } })
			.get(GEN)
			.query(true)
			.reply(200, []);
		expect(
			await activeTrigger(
				triggerWorkflow({ authentication: 'oAuth2', events: ['done'] }),
				oauth2Credentials,
			).poll(),
		).toBeNull();
		scope.done();
	});
});

describe('Social Content Trigger: state stays small', () => {
	test.each([36, 64])(
		'every part of the state at its cap, with %i-character ids: under 64 KiB, the memory as large as fits',
		(idLength) => {
			const id = (n: number) => String(n).padStart(idLength, '0');
			const start = baseline(
				{
					entries: Array.from({ length: MAX_SEEN * 2 }, (_, i) => ({ id: id(i), status: 'done' })),
				},
				clockNow(),
			);
			const pending = Array.from({ length: MAX_PENDING + 50 }, (_, i) => id(1e6 + i));
			const decided = { listed: [], pending, finishedUpToMs: clockNow() };
			const fired = Array.from({ length: 300 }, (_, i) => keyOf(id(2e6 + i), 'done'));
			// Fired as read by id: known, not placed (the `unplaced` list at its cap too).
			const readById = new Set(Array.from({ length: 300 }, (_, i) => id(2e6 + i)));
			const steady = settle({ ...start, pending }, decided, {
				fired,
				due: [],
				resolvedPending: [],
				readById,
			});
			const full = settle({ ...start, pending }, decided, {
				fired,
				readById,
				due: Array.from({ length: MAX_DUE + 5 }, (_, i) => [id(3e6 + i), 'done', MAX_ATTEMPTS - 1]),
				resolvedPending: [],
				scan: {
					page: 123_457,
					read: Array.from({ length: MAX_SCAN_READ * 2 }, (_, i) =>
						i % 2 ? KNOWN_RUN : `done|${clockNow()}|${id(4e6 + i)}`,
					),
				},
			});
			expect([full.pending.length, full.due.length]).toEqual([MAX_PENDING, MAX_DUE]);
			for (const [name, state] of Object.entries({ steady, full })) {
				const remembered = new KeyMemory(state.seen).size;
				const bytes = JSON.stringify({ 'node:Trigger': { generations: state } }).length;
				scenarioTotals.push(
					`  state, ${name}, every part at its cap (${idLength}-character ids): ${bytes} bytes, ${remembered} remembered`,
				);
				expect(bytes).toBeLessThanOrEqual(STATE_MAX_BYTES);
				// The newest fired ones are kept: the memory gives way from its oldest end.
				expect(new KeyMemory(state.seen).has(keyOf(id(2e6 + 299), 'done'))).toBe(true);
				expect(remembered).toBeGreaterThanOrEqual(
					name === 'steady' && idLength === 36 ? MAX_SEEN : 1000,
				);
			}
		},
	);

	// Batch sizes are primes, none equal to a cap (the memory holds MAX_SEEN): a batch of exactly
	// the memory's size is the one that hid its old bug. The 100,000-generation runs are in the bench.
	const REGIMES: Array<[string, ListShape, number]> = [
		['finish times, unpaged', { timestamps: 'finish', order: 'creation' }, 997],
		['no timestamps, unpaged, more per poll than the memory holds', NO_TIMESTAMPS, MAX_SEEN + 7],
		['no timestamps, paged 97', { timestamps: 'none', order: 'creation', pageSize: 97 }, 1009],
		[
			'finish times, paged 101, completion order',
			{ timestamps: 'finish', order: 'completion', pageSize: 101 },
			1999,
		],
	];
	test.each(REGIMES)(
		'20,000 generations, %s: ≤ 64 KiB, none lost or repeated',
		async (name, shape, perPoll) => {
			const total = 20_000;
			const service = new GenerationService(shape);
			service.serve();
			service.createDone('seed');
			const workflow = triggerWorkflow({ events: ['done'] });
			const active = activeTrigger(workflow, apiKeyCredentials);
			await active.poll();
			const fired = new Set<string>();
			let repeated = 0;
			let largest = 0;
			let made = 0;
			let lastPending: string[] = [];
			while (made < total) {
				const batch = Math.min(perPoll, total - made);
				// A few stay pending across polls, so the pending set is exercised too.
				service.createDoneMany('g', batch - 2, made);
				const pending = [`g${made + batch - 2}`, `g${made + batch - 1}`];
				pending.forEach((id) => service.create(id));
				lastPending.forEach((id) => service.finish(id));
				lastPending = pending;
				made += batch;
				for (const item of (await active.poll())?.[0] ?? []) {
					if (fired.has(String(item.json.id))) repeated++;
					fired.add(String(item.json.id));
				}
				largest = Math.max(largest, JSON.stringify(workflow.staticData).length);
			}
			for (let quietPoll = 0; quietPoll < 3; quietPoll++)
				for (const item of (await active.poll())?.[0] ?? []) {
					if (fired.has(String(item.json.id))) repeated++;
					fired.add(String(item.json.id));
				}
			expect({ fired: fired.size, repeated }).toEqual({ fired: total - 2, repeated: 0 });
			expect(largest).toBeLessThanOrEqual(64 * 1024);
			scenarioTotals.push(
				`  state after 20,000 generations, ${name}: ${JSON.stringify(workflow.staticData).length} bytes (largest ${largest})`,
			);
		},
		120_000,
	);

	test.each([MAX_SEEN - 1, MAX_SEEN + 1, MAX_SEEN * 2 + 3])(
		'%i finished at activation, then quiet polls: nothing old fires (the memory keeps the newest)',
		async (atActivation) => {
			const totals = await runTimeline(
				NO_TIMESTAMPS,
				(s) => s.createDoneMany('old_', atActivation),
				quiet(5),
			);
			report(`${atActivation} at activation, quiet`, totals);
		},
		60_000,
	);

	test('the memory full, then 503 finish, then 1: those fire once, and quiet polls fire nothing old', async () => {
		const totals = await runTimeline(NO_TIMESTAMPS, (s) => s.createDoneMany('old_', MAX_SEEN), [
			{
				act: (s) => s.createDoneMany('a_', 503),
				fires: Array.from({ length: 503 }, (_, i) => `a_${i}`),
			},
			{ act: (s) => s.createDone('b'), fires: ['b'] },
			...quiet(6),
		]);
		report('memory full, then 503, then 1', totals);
	}, 60_000);
});
