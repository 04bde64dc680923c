/**
 * The generation trigger at scale: every list shape over long timelines (2,500 done, then new
 * ones, restarts, failed polls), and the state at 20,000 generations. Long histories: `npm test`
 * runs them, `npm run test:unit` (the quick loop) does not.
 */
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
import { apiKeyCredentials } from '../helpers/fixtures.cjs';
import { GenerationService, type ListShape } from '../helpers/generationService.cjs';
import { activeTrigger, triggerWorkflow } from '../helpers/harness.cjs';
import {
	NO_TIMESTAMPS,
	quiet,
	report,
	useTimelineSuite,
	runTimeline,
	scenarioTotals,
	SHAPES,
} from '../helpers/triggerTimeline.cjs';

useTimelineSuite();

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
