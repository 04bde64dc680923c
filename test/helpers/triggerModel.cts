/**
 * A model-based check of the generation trigger: random histories played against the service
 * stand-in (GenerationService) and the real poll() in a simulated n8n poll engine, judged by a
 * reference model of what must fire. Used by the property test (a fixed seed, in `npm test`) and
 * by the soak run (`npm run soak:trigger`, many thousands of cases).
 *
 * The promise checked: every generation that reaches a watched status after the trigger's starting
 * point fires exactly once; nothing that finished before it ever fires. The starting point is the
 * first poll whose read shows a list; an empty one stays in doubt until a read shows generations:
 * with finish times, or at most EMPTY_START_MAX_NEW finished, they are new; more than that are a
 * history the empty answer hid, and that read is the starting point. When n8n never saved it (the
 * activation poll failed, then n8n restarted or the workflow was activated again before a poll
 * emitted), the next such read is a new starting point. Documented losses are counted apart:
 * - what finished between a starting point n8n never saved and the next one (it may fire or not);
 * - in a list sorted by last update without finish times, an old generation touched when it sat
 *   deeper than the memory reaches (docs/trigger.md) may fire once;
 * - a list cut to its newest entries: a generation that no read showed while it was pending, nor
 *   the first read after it finished (more finished between two polls than the list shows),
 *   cannot be told from an old one; nor one seen pending only before n8n restarted (what quiet
 *   polls learn lives in n8n's process until a poll emits);
 * - an empty list that was not the truth, then at most EMPTY_START_MAX_NEW finished ones (or ones
 *   with recent finish times): they pass for a new account's first generations and may fire.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import {
	EMPTY_START_MAX_NEW,
	MAX_SEEN,
	readState,
} from '../../nodes/SocialContentTrigger/generationState';
import { apiKeyCredentials } from './fixtures.cjs';
import { GenerationService, type ListShape } from './generationService.cjs';
import { ENGINES, SimulatedN8n, type Engine } from './pollEngines.cjs';

type PollResult = INodeExecutionData[][] | null;

/** Depth (finished generations, newest first) the memory always reaches, whatever else the state holds. */
export const MEMORY_FLOOR = Math.floor(MAX_SEEN * 0.9);

export type Change =
	| { kind: 'finishNew'; count: number; failedEvery: number }
	| { kind: 'start'; count: number }
	| { kind: 'finishPending'; from: number; count: number; failed: boolean }
	| { kind: 'touch'; at: number[] }
	| { kind: 'remove'; at: number[] };

export type Poll =
	| 'poll'
	| 'fail503'
	| 'fail429'
	| 'oddAnswer'
	| 'restart'
	| 'overlap'
	| 'reactivate';

export interface Step {
	change?: Change;
	poll: Poll;
}

export interface Scenario {
	engine: Engine;
	shape: ListShape;
	failedToo: boolean;
	atActivation: number;
	pendingAtActivation: number;
	activation: 'ok' | 'fail503' | 'oddAnswer';
	steps: Step[];
}

/** Sizes of histories and batches: small ones, the memory's size and its neighbours, primes, large ones. */
const size = (max: number) =>
	fc.oneof(
		{ weight: 12, arbitrary: fc.integer({ min: 0, max: 40 }) },
		{
			weight: 2,
			arbitrary: fc.constantFrom(
				MAX_SEEN - 1,
				MAX_SEEN,
				MAX_SEEN + 1,
				MAX_SEEN + 7,
				MEMORY_FLOOR - 1,
				997,
				1009,
			),
		},
		{ weight: 1, arbitrary: fc.integer({ min: 41, max }) },
	);

const shapeArb: fc.Arbitrary<ListShape> = fc
	.record({
		timestamps: fc.constantFrom<ListShape['timestamps']>('none', 'finish'),
		order: fc.constantFrom<ListShape['order']>('creation', 'completion', 'update'),
		pendingAt: fc.constantFrom<'top' | 'bottom'>('top', 'bottom'),
		pageSize: fc.option(fc.constantFrom(7, 50, 97, 101, 500), { nil: undefined }),
		window: fc.option(fc.constantFrom(53, 100, 1000), { nil: undefined }),
		outputsInList: fc.boolean(),
	})
	.map((shape) => ({
		...shape,
		// A list cut to its newest entries is not paged.
		pageSize: shape.window ? undefined : shape.pageSize,
	}));

const changeArb: fc.Arbitrary<Change> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('finishNew' as const),
			count: size(MAX_SEEN * 2),
			failedEvery: fc.integer({ min: 0, max: 5 }),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('start' as const),
			count: fc.integer({ min: 1, max: 7 }),
		}),
	},
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('finishPending' as const),
			from: fc.nat(),
			count: fc.integer({ min: 1, max: 5 }),
			failed: fc.boolean(),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('touch' as const),
			at: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('remove' as const),
			at: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
		}),
	},
);

const pollArb: fc.Arbitrary<Poll> = fc.oneof(
	{ weight: 12, arbitrary: fc.constant('poll' as const) },
	{ weight: 1, arbitrary: fc.constant('fail503' as const) },
	{ weight: 1, arbitrary: fc.constant('fail429' as const) },
	{ weight: 1, arbitrary: fc.constant('oddAnswer' as const) },
	{ weight: 1, arbitrary: fc.constant('restart' as const) },
	{ weight: 1, arbitrary: fc.constant('overlap' as const) },
	{ weight: 1, arbitrary: fc.constant('reactivate' as const) },
);

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
	engine: fc.constantFrom(...ENGINES),
	shape: shapeArb,
	failedToo: fc.boolean(),
	atActivation: size(MAX_SEEN * 2 + 500),
	pendingAtActivation: fc.integer({ min: 0, max: 6 }),
	activation: fc.constantFrom<Scenario['activation']>('ok', 'ok', 'ok', 'fail503', 'oddAnswer'),
	steps: fc.array(fc.record({ change: fc.option(changeArb, { nil: undefined }), poll: pollArb }), {
		maxLength: 14,
	}),
});

/** Answers with 200 and no list in them. */
const ODD_ANSWERS: Array<[number, unknown]> = [
	[200, { message: 'maintenance' }],
	[200, []],
	[204, ''],
	[200, { generations: null }],
];

/** Quiet polls at the end: carried, owed and unseen pending generations come out by then. */
const DRAIN_POLLS = 12;

export interface Verdict {
	firedTwice: string[];
	lost: string[];
	firedOld: string[];
	documented: { unshown: number; unsavedStart: number; deepTouch: number; hiddenByEmpty: number };
	fired: number;
	polls: number;
}

let casesRun = 0;

/** Plays one scenario; returns what broke the promise (empty lists: nothing). */
export async function runScenario(scenario: Scenario): Promise<Verdict> {
	nock.cleanAll();
	const p = `m${++casesRun}_`;
	const service = new GenerationService(scenario.shape);
	service.realTime = true; // the starting point on an empty list compares finish times with n8n's clock
	service.serve();
	const statuses = scenario.failedToo ? ['done', 'failed'] : ['done'];
	const n8n = new SimulatedN8n(
		scenario.engine,
		{ events: statuses, simplify: true },
		apiKeyCredentials,
	);

	// The model: when each generation finished (an event counter), and the starting points.
	let clock = 0;
	const finishedAt = new Map<string, { at: number; status: string }>();
	const pending: string[] = [];
	const removedBeforeFiring = new Set<string>();
	const mayFireOnce = new Set<string>(); // documented: deep touches
	// Lists cut to their newest entries: ids a read showed while pending or first after finishing.
	const shown = new Set<string>();
	// Documented: finished before an empty answer that was not the truth, and few enough (or with
	// finish times recent enough) to pass for a new account's first generations: they may fire.
	const hiddenByEmpty = new Set<string>();
	const unread = new Set<string>(); // finished, no read since
	const starts: number[] = []; // event counter at each starting point
	let started = false;
	let emptyStart = false; // started on an empty list, no generation read since
	let made = 0;
	const fired = new Map<string, number>();
	let polls = 0;

	const create = (status?: 'done' | 'failed') => {
		const id = `${p}${made++}`;
		clock++;
		if (status) {
			service.createDone(id, status);
			finishedAt.set(id, { at: clock, status });
			unread.add(id);
		} else {
			service.create(id);
			pending.push(id);
		}
		return id;
	};
	const finished = () =>
		service.listed().filter((g) => g.status === 'done' || g.status === 'failed');

	// Entries without outputs are each read by id when they fire: thousands at once would spend
	// every poll's whole budget in real time. The carry-over past a budget has tests of its own.
	const batchCap = scenario.shape.outputsInList ? Infinity : 313;
	const apply = (change: Change) => {
		if (change.kind === 'finishNew')
			for (let i = 0; i < Math.min(change.count, batchCap); i++)
				create(change.failedEvery && i % change.failedEvery === 0 ? 'failed' : 'done');
		else if (change.kind === 'start') for (let i = 0; i < change.count; i++) create();
		else if (change.kind === 'finishPending') {
			for (let i = 0; i < change.count && pending.length; i++) {
				const [id] = pending.splice(change.from % pending.length, 1);
				const status = change.failed ? 'failed' : 'done';
				clock++;
				service.finish(id, status);
				finishedAt.set(id, { at: clock, status });
				unread.add(id);
			}
		} else {
			const list = finished();
			if (!list.length) return;
			for (const at of change.at) {
				const rank = Math.min(list.length - 1, Math.floor(at * list.length));
				const id = list[rank].id;
				if (change.kind === 'touch') {
					const reach = Math.min(MEMORY_FLOOR, scenario.shape.window ?? Infinity);
					if (
						scenario.shape.order === 'update' &&
						scenario.shape.timestamps === 'none' &&
						rank >= reach
					)
						mayFireOnce.add(id);
					service.touch(id);
				} else {
					if (!fired.has(id)) removedBeforeFiring.add(id);
					service.remove(id);
					list.splice(rank, 1);
					if (!list.length) return;
				}
			}
		}
	};

	const record = (...results: PollResult[]) => {
		for (const result of results)
			for (const item of result?.[0] ?? []) {
				const id = String(item.json.id);
				fired.set(id, (fired.get(id) ?? 0) + 1);
			}
	};
	/** A poll whose list read will show generations takes the starting point, if none is held. */
	/** A poll reads the list; `answer` is what it shows (null: an answer with no list in it). */
	const readsList = (answer: Array<{ id: string; status: string }> | null = service.listed()) => {
		if (!answer) return;
		if (scenario.shape.window) {
			const visible = new Set(answer.map((generation) => generation.id));
			for (const id of pending) if (visible.has(id)) shown.add(id);
			for (const id of unread) if (visible.has(id)) shown.add(id);
			unread.clear();
		}
		if (!started) {
			started = true;
			emptyStart = answer.length === 0;
			starts.push(clock);
		} else if (emptyStart && answer.length > 0) {
			emptyStart = false;
			const finishedShown = answer.filter((g) => g.status === 'done' || g.status === 'failed');
			if (scenario.shape.timestamps === 'none' && finishedShown.length > EMPTY_START_MAX_NEW)
				starts.push(clock);
			else
				for (const generation of finishedShown)
					if ((finishedAt.get(generation.id)?.at ?? 0) <= starts[starts.length - 1])
						hiddenByEmpty.add(generation.id);
		}
	};
	/** What an odd answer shows, as readsList takes it: `[]` is an empty list, the rest no list. */
	const oddList = (answer: [number, unknown]) =>
		Array.isArray(answer[1]) ? (answer[1] as never[]) : null;
	/** The states n8n saved: the node's data, the activation record, the cursor. */
	const savedStates = () => {
		const global = n8n.saved.global as IDataObject | undefined;
		const record = global?.['socialContentTrigger:trigger-0'] as IDataObject | undefined;
		return [
			readState((n8n.saved['node:Trigger'] as IDataObject | undefined) ?? {}),
			record?.generations as IDataObject | undefined,
			readState(n8n.cursor ?? {}),
		].filter((state): state is NonNullable<typeof state> => state !== undefined);
	};
	/**
	 * n8n lost the process (restart) or activates anew: an unsaved starting point is gone, and so
	 * is a decision no saved state holds (the read after an empty start, made by a quiet poll).
	 */
	const forgetUnsaved = () => {
		const saved = savedStates();
		if (!saved.length) started = emptyStart = false;
		else if (saved.every((state) => (state as { emptyAtMs?: number }).emptyAtMs !== undefined))
			emptyStart = true;
	};

	for (let i = 0; i < scenario.atActivation; i++) create('done');
	for (let i = 0; i < scenario.pendingAtActivation; i++) create();

	if (scenario.activation === 'fail503') {
		service.listFailStatus = 503;
		service.listFailures = 1;
	} else if (scenario.activation === 'oddAnswer') {
		const answer = ODD_ANSWERS[made % 4];
		service.listAnswers.push(answer);
		readsList(oddList(answer));
	} else readsList();
	record(await n8n.activate());
	polls++;

	for (const step of scenario.steps) {
		if (step.change) apply(step.change);
		polls++;
		switch (step.poll) {
			case 'fail503':
			case 'fail429':
				service.listFailStatus = step.poll === 'fail503' ? 503 : 429;
				service.listFailures = 1;
				record(await n8n.poll());
				service.listFailures = 0;
				break;
			case 'oddAnswer': {
				const answer = ODD_ANSWERS[polls % ODD_ANSWERS.length];
				service.listAnswers.push(answer);
				// Once started, an answer with nothing in it moves nothing.
				if (!started) readsList(oddList(answer));
				record(await n8n.poll());
				break;
			}
			case 'restart':
				forgetUnsaved();
				// What quiet polls learned (a generation seen running) may be gone with the process.
				for (const id of shown) if (!fired.has(id)) shown.delete(id);
				// The durable engines do not poll at n8n's start; classic does.
				if (scenario.engine === 'classic') readsList();
				record(await n8n.restart());
				break;
			case 'reactivate':
				n8n.deactivate();
				forgetUnsaved();
				readsList();
				record(await n8n.activate());
				break;
			case 'overlap':
				if (!started) {
					readsList();
					record(await n8n.poll());
				} else {
					readsList();
					record(...(await n8n.overlappingPolls()));
				}
				break;
			default:
				readsList();
				record(await n8n.poll());
		}
	}
	for (let i = 0; i < DRAIN_POLLS; i++) {
		readsList();
		record(await n8n.poll());
		polls++;
	}

	const firstStart = starts[0] ?? Infinity;
	const lastStart = starts[starts.length - 1] ?? Infinity;
	const due = new Set<string>();
	const between = new Set<string>();
	const unshown = new Set<string>();
	for (const [id, { at, status }] of finishedAt) {
		if (!statuses.includes(status) || removedBeforeFiring.has(id)) continue;
		if (at <= firstStart) continue;
		if (scenario.shape.window && !shown.has(id)) unshown.add(id);
		else if (at > lastStart) due.add(id);
		else between.add(id);
	}
	// Documented: may fire once, or not at all.
	const either = (id: string) =>
		between.has(id) || unshown.has(id) || mayFireOnce.has(id) || hiddenByEmpty.has(id);
	const verdict: Verdict = {
		firedTwice: [...fired].filter(([, times]) => times > 1).map(([id]) => id),
		lost: [...due].filter((id) => !fired.has(id) && !mayFireOnce.has(id)),
		firedOld: [...fired.keys()].filter((id) => !due.has(id) && !either(id)),
		documented: {
			unshown: [...unshown].filter((id) => !fired.has(id)).length,
			unsavedStart: [...between].filter((id) => !fired.has(id)).length,
			deepTouch: [...mayFireOnce].filter((id) => fired.has(id)).length,
			hiddenByEmpty: [...hiddenByEmpty].filter((id) => fired.has(id)).length,
		},
		fired: fired.size,
		polls,
	};
	nock.cleanAll();
	return verdict;
}

/** Whether the verdict keeps the promise. */
export function keepsPromise(verdict: Verdict): boolean {
	return !verdict.firedTwice.length && !verdict.lost.length && !verdict.firedOld.length;
}

/** A short line of a verdict, for a failing case's report. */
export function describeVerdict(verdict: Verdict): string {
	const few = (ids: string[]) =>
		`${ids.length}${ids.length ? ` (${ids.slice(0, 5).join(', ')})` : ''}`;
	return `fired twice ${few(verdict.firedTwice)}, lost ${few(verdict.lost)}, old ones fired ${few(verdict.firedOld)}`;
}
