/**
 * A model-based check of the trigger's post events (Post Published, Post Failed): random histories
 * of a busy posting account played against the service stand-in (PostService) and the real poll()
 * in a simulated n8n poll engine, judged by a reference model. Used by the seeded property test in
 * `npm test` and by the soak run (`npm run soak:posts`).
 *
 * The promise checked: every outcome a read can show (a post published; a post failed, once per
 * due date it failed at) that happens after the starting point fires exactly once; nothing that
 * happened before it fires; a post only moved, edited, or deleted fires nothing. The starting point
 * is the first read that shows the list (again after another account's key, or after a restart
 * when n8n never saved one). Exempt, and counted: an outcome no read showed before it was replaced
 * or deleted (failed, then published before the next read; failed and queued again), and what
 * happened between a starting point n8n never saved and the next one, and an outcome of a post due
 * outside every range read (more than 7 days before the last poll: docs/trigger.md).
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import { isPostState } from '../../nodes/SocialContentTrigger/postState';
import { READ_RETRY_DELAYS_MS } from '../../nodes/shared/transport';
import { currentClock } from './clock.cjs';
import { apiKeyCredentials, pingAnswer, servePing } from './fixtures.cjs';
import { ENGINES, SimulatedN8n, type Engine } from './pollEngines.cjs';
import { PostService, type PostShape } from './postService.cjs';

type PollResult = INodeExecutionData[][] | null;
const MINUTE_MS = 60_000;
const READ_TRIES = READ_RETRY_DELAYS_MS.length + 1;

export type PostChange =
	/** A post due `inMinutes` from now (-10 to 360), waiting. */
	| { kind: 'schedule'; inMinutes: number }
	/** A waiting post (picked by `at`, 0–1) goes out or fails. */
	| { kind: 'send'; at: number; outcome: 'published' | 'failed' }
	/** Created and sent between two polls: never read waiting. */
	| { kind: 'sendNow'; outcome: 'published' | 'failed' }
	/** A failed post queued again at a new date (`inMinutes` from now), and maybe failing again at once. */
	| { kind: 'requeue'; at: number; inMinutes: number; failAgain: boolean }
	/** A failed post retried and published, with no read of it waiting. */
	| { kind: 'retryPublished'; at: number }
	/** A post with an outcome moved to another date (days back, or hours ahead). */
	| { kind: 'move'; at: number; byDays: number }
	| { kind: 'edit'; at: number }
	| { kind: 'remove'; at: number };

export type PostPoll = 'poll' | 'fail' | 'outage' | 'restart' | 'reactivate' | 'otherAccount';

export interface PostScenario {
	engine: Engine;
	shape: PostShape;
	/** Posts that went out or failed before the trigger, and posts waiting at activation. */
	sentBefore: number;
	waitingBefore: number;
	activation: 'ok' | 'fail';
	steps: Array<{ changes: PostChange[]; poll: PostPoll; minutes: number }>;
}

const at = fc.double({ min: 0, max: 0.999, noNaN: true });
const changeArb: fc.Arbitrary<PostChange> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('schedule' as const),
			inMinutes: fc.integer({ min: -10, max: 360 }),
		}),
	},
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('send' as const),
			at,
			outcome: fc.constantFrom<'published' | 'failed'>('published', 'failed'),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('sendNow' as const),
			outcome: fc.constantFrom<'published' | 'failed'>('published', 'failed'),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('requeue' as const),
			at,
			inMinutes: fc.integer({ min: 0, max: 120 }),
			failAgain: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('retryPublished' as const), at }) },
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('move' as const),
			at,
			byDays: fc.double({ min: -30, max: 0.25, noNaN: true }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), at }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at }) },
);

const pollArb: fc.Arbitrary<PostPoll> = fc.oneof(
	{ weight: 10, arbitrary: fc.constant('poll' as const) },
	{ weight: 1, arbitrary: fc.constant('fail' as const) },
	{ weight: 1, arbitrary: fc.constant('outage' as const) },
	{ weight: 1, arbitrary: fc.constant('restart' as const) },
	{ weight: 1, arbitrary: fc.constant('reactivate' as const) },
	{ weight: 1, arbitrary: fc.constant('otherAccount' as const) },
);

export const postScenarioArb: fc.Arbitrary<PostScenario> = fc.record({
	engine: fc.constantFrom(...ENGINES),
	shape: fc.constantFrom<PostShape>('spec', 'postiz', 'bare'),
	sentBefore: fc.integer({ min: 0, max: 200 }),
	waitingBefore: fc.integer({ min: 0, max: 8 }),
	activation: fc.constantFrom<PostScenario['activation']>('ok', 'ok', 'ok', 'fail'),
	steps: fc.array(
		fc.record({
			changes: fc.array(changeArb, { maxLength: 5 }),
			poll: pollArb,
			minutes: fc.integer({ min: 0, max: 90 }),
		}),
		{ maxLength: 16 },
	),
});

/**
 * A busy posting account's cases, played first in every run: a post queued again that fails again
 * at its new date between two polls; one failed and only moved to an old date; one failed, then
 * retried and published before the next read; sends during an outage.
 */
export const BUSY_POSTING: PostScenario[] = [
	{
		engine: 'classic',
		shape: 'postiz',
		sentBefore: 13,
		waitingBefore: 2,
		activation: 'ok',
		steps: [
			{ changes: [{ kind: 'send', at: 0, outcome: 'failed' }], poll: 'poll', minutes: 1 },
			{
				changes: [{ kind: 'requeue', at: 0, inMinutes: 10, failAgain: true }],
				poll: 'poll',
				minutes: 1,
			},
			{
				changes: [
					{ kind: 'sendNow', outcome: 'failed' },
					{ kind: 'move', at: 0.99, byDays: -3 },
				],
				poll: 'poll',
				minutes: 1,
			},
			{
				changes: [
					{ kind: 'send', at: 0, outcome: 'failed' },
					{ kind: 'retryPublished', at: 0.99 },
				],
				poll: 'poll',
				minutes: 1,
			},
			{
				changes: [
					{ kind: 'schedule', inMinutes: 5 },
					{ kind: 'sendNow', outcome: 'published' },
				],
				poll: 'outage',
				minutes: 1,
			},
		],
	},
];

export interface PostVerdict {
	firedTwice: string[];
	lost: string[];
	firedOld: string[];
	/** Outcomes the promise holds for, and those exempt (never shown, or before an unsaved start). */
	due: number;
	exempt: number;
	fired: number;
	polls: number;
}

/** One outcome as it happened: the key the trigger fires it under, and whether a read showed it. */
interface Outcome {
	key: string;
	at: number;
	shown: boolean;
	dateMs: number;
}

let casesRun = 0;

/** Plays one scenario; returns what broke the promise (empty lists: nothing). */
export async function runPostScenario(scenario: PostScenario): Promise<PostVerdict> {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
	const p = `q${++casesRun}_`;
	const clock = currentClock();
	const service = new PostService(scenario.shape);
	service.serve();
	const n8n = new SimulatedN8n(
		scenario.engine,
		{ events: ['postPublished', 'postFailed'], simplify: true },
		apiKeyCredentials,
	);

	let event = 0;
	let made = 0;
	const outcomes: Outcome[] = [];
	/** Each post's state in the model: its current outcome (an index into outcomes) or waiting. */
	const current = new Map<string, { outcome?: number; dateMs: number }>();
	const removedUnshown = new Set<number>();
	const starts: number[] = [];
	let startPending = true;
	/** Whether n8n has saved a state of the current account (a starting point for another is not, until then). */
	let accountSaved = true;
	const fired = new Map<string, number>();
	let polls = 0;

	// A read that shows the list: the outcomes it shows are shown; the first after a reset is a start.
	service.onListed = (startMs, endMs) => {
		for (const { outcome, dateMs } of current.values())
			if (outcome !== undefined && dateMs >= startMs && dateMs <= endMs)
				outcomes[outcome].shown = true;
		if (startPending) {
			starts.push(event);
			startPending = false;
		}
	};
	const now = () => clock.now();
	const outcomeOf = (id: string, outcome: 'published' | 'failed', dateMs: number) => {
		const key = `${id}|${outcome}`;
		outcomes.push({ key, at: ++event, shown: false, dateMs });
		current.set(id, { outcome: outcomes.length - 1, dateMs });
	};
	const pick = (which: (id: string) => boolean, at: number) => {
		const ids = [...current.keys()].filter(which);
		return ids.length ? ids[Math.floor(at * ids.length)] : undefined;
	};
	const waiting = (id: string) => current.get(id)!.outcome === undefined;
	const hasOutcome = (status: string) => (id: string) => {
		const index = current.get(id)!.outcome;
		return index !== undefined && outcomes[index].key.endsWith(`|${status}`);
	};
	const shownNow = (id: string) => outcomes[current.get(id)!.outcome!].shown;
	const schedule = (dateMs: number) => {
		const id = `${p}${made++}`;
		service.schedule(id, { dateMs, channel: made % 2 ? 'ch_x' : 'ch_linkedin' });
		current.set(id, { dateMs });
		event++;
		return id;
	};
	const send = (id: string, outcome: 'published' | 'failed') => {
		service.send(id, outcome);
		outcomeOf(id, outcome, current.get(id)!.dateMs);
	};
	const apply = (change: PostChange) => {
		switch (change.kind) {
			case 'schedule':
				schedule(now() + change.inMinutes * MINUTE_MS);
				return;
			case 'sendNow':
				send(schedule(now()), change.outcome);
				return;
			case 'send': {
				const id = pick(waiting, change.at);
				if (id) send(id, change.outcome);
				return;
			}
			case 'requeue': {
				const id = pick(hasOutcome('failed'), change.at);
				if (!id) return;
				// A new due date, always later than the one it failed at (the case a read can tell).
				const dateMs =
					Math.max(now(), current.get(id)!.dateMs + MINUTE_MS) + change.inMinutes * MINUTE_MS;
				service.requeue(id, dateMs);
				current.set(id, { dateMs });
				event++;
				if (change.failAgain) send(id, 'failed');
				return;
			}
			case 'retryPublished': {
				const id = pick(hasOutcome('failed'), change.at);
				if (id) send(id, 'published');
				return;
			}
			case 'move': {
				// Moved after a read showed its outcome; a failure only to a date well before the last
				// read (nearer, a move looks like a failure at a new date: docs/trigger.md).
				const id = pick((candidate) => !waiting(candidate) && shownNow(candidate), change.at);
				if (!id) return;
				const byDays = hasOutcome('failed')(id) ? Math.min(change.byDays, -2) : change.byDays;
				const dateMs = now() + byDays * 86_400_000;
				service.move(id, dateMs);
				current.get(id)!.dateMs = dateMs;
				return;
			}
			case 'edit': {
				const id = pick(() => true, change.at);
				if (id) service.edit(id, `Edited ${id}`);
				return;
			}
			case 'remove': {
				const id = pick(() => true, change.at);
				if (!id) return;
				const index = current.get(id)!.outcome;
				if (index !== undefined && !outcomes[index].shown) removedUnshown.add(index);
				service.remove(id);
				current.delete(id);
			}
		}
	};
	const record = (...results: PollResult[]) => {
		if (results.some((result) => result !== null)) accountSaved = true;
		for (const result of results)
			for (const item of result?.[0] ?? []) {
				const key = `${String(item.json.id)}|${String(item.json.state)}`;
				fired.set(key, (fired.get(key) ?? 0) + 1);
			}
	};
	/** After a restart or activation: a start n8n never saved is taken again at the next read. */
	const forgetUnsaved = () => {
		const global = n8n.saved.global as IDataObject | undefined;
		const record = global?.['socialContentTrigger:trigger-0'] as IDataObject | undefined;
		const saved = [
			(n8n.saved['node:Trigger'] as IDataObject | undefined)?.posts,
			record?.posts,
			n8n.cursor?.posts,
		].filter(isPostState);
		if (!saved.length || !accountSaved) startPending = true;
	};

	// What went out before the trigger (spread over 20 days, as sentLongAgo makes them): old outcomes.
	service.sentLongAgo(`${p}old_`, scenario.sentBefore, 20).forEach((id, index) => {
		const dateMs = now() - ((index + 1) / scenario.sentBefore) * 20 * 86_400_000;
		outcomeOf(id, index % 7 === 3 ? 'failed' : 'published', dateMs);
	});
	for (let i = 0; i < scenario.waitingBefore; i++) schedule(now() + (i - 1) * 7 * MINUTE_MS);
	event++;

	if (scenario.activation === 'fail') service.listFailures = READ_TRIES;
	record(await n8n.activate());
	service.listFailures = 0;
	polls++;
	for (const step of scenario.steps) {
		for (const change of step.changes) apply(change);
		await clock.wait(step.minutes * MINUTE_MS);
		polls++;
		switch (step.poll) {
			case 'fail':
				service.listFailures = READ_TRIES;
				record(await n8n.poll());
				service.listFailures = 0;
				break;
			case 'outage':
				service.listFailures = READ_TRIES * 3;
				for (let failed = 0; failed < 3; failed++) record(await n8n.poll());
				service.listFailures = 0;
				break;
			case 'restart':
				forgetUnsaved();
				record(await n8n.restart());
				// The classic engine polls at n8n's start, and n8n saves after it.
				if (scenario.engine === 'classic') accountSaved = true;
				break;
			case 'reactivate':
				n8n.deactivate();
				forgetUnsaved();
				record(await n8n.activate());
				accountSaved = true; // n8n saves after every activation
				break;
			case 'otherAccount':
				pingAnswer.organization = `org_${polls}`;
				startPending = true;
				accountSaved = false;
				record(await n8n.poll());
				break;
			default:
				record(await n8n.poll());
		}
	}
	for (let i = 0; i < 3; i++) {
		await clock.wait(MINUTE_MS);
		record(await n8n.poll());
		polls++;
	}
	service.onListed = undefined;

	const expected = new Map<string, number>();
	const allowed = new Map<string, number>();
	const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
	let due = 0;
	let exempt = 0;
	outcomes.forEach((outcome, index) => {
		const startBefore = [...starts].reverse().find((start) => start < outcome.at);
		if (startBefore === undefined) return; // before the first start: old
		const unsavedStart = starts.some((start) => start >= outcome.at); // a start taken again at or after it
		if (!outcome.shown || removedUnshown.has(index) || unsavedStart) {
			exempt++;
			add(allowed, outcome.key);
			return;
		}
		due++;
		add(expected, outcome.key);
		add(allowed, outcome.key);
	});
	const verdict: PostVerdict = {
		firedTwice: [...fired]
			.filter(([key, times]) => times > (allowed.get(key) ?? 0) && allowed.has(key))
			.map(([key]) => key),
		lost: [...expected].filter(([key, times]) => (fired.get(key) ?? 0) < times).map(([key]) => key),
		firedOld: [...fired.keys()].filter((key) => !allowed.has(key)),
		due,
		exempt,
		fired: [...fired.values()].reduce((sum, times) => sum + times, 0),
		polls,
	};
	nock.cleanAll();
	return verdict;
}

/** The promise and its report, as the generation model states them. */
export {
	keepsPromise as keepsPostPromise,
	describeVerdict as describePostVerdict,
} from './triggerModel.cjs';
