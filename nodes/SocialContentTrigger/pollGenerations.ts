import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { generationItem, getGeneration } from '../shared/generations';
import { finishTimeMs, normaliseGeneration } from '../shared/shapes';
import { simplifyGeneration } from '../shared/simplify';
import { walkPages } from '../shared/paging';
import type { RunContext } from '../shared/transport';
import { openFamily, triggerKey, type FamilyPoll } from './stateCopies';
import type { IdLookup } from './idMemory';
import {
	baseline,
	fromV1,
	fromV2,
	fromV3,
	isPending,
	MAX_ATTEMPTS,
	MAX_ERROR_LENGTH,
	MAX_OWED,
	MAX_SEEN,
	plan,
	readState,
	SeenMemory,
	settle,
	writeState,
	type GenerationState,
	type ListReading,
	type OwedGeneration,
} from './generationState';

/** One poll's requests: they share the connection, the pace and the time budget. */
type PollRun = RunContext<IPollFunctions>;

export interface TriggerOptions {
	/** Final statuses that fire: `done`, `failed`. */
	statuses: string[];
	/** Format ids that fire; empty means all. */
	formats: string[];
	download: boolean;
	/** Output simplified generations (see simplifyGeneration). */
	simplify: boolean;
}

/** Entries read for a baseline (and at an upgrade): the memory's worth, as many pages as that takes. */
const BASELINE_ENTRIES = MAX_SEEN;
/** Pending generations the list did not show that are asked for by id, per poll. */
const DETAIL_READS_PER_POLL = 10;
/**
 * Most time one poll spends (ms): well inside n8n's poll timeout (45 s in the durable engine, which
 * abandons a longer poll and runs it again). What does not fit is carried to the next poll.
 */
export const POLL_TIME_BUDGET_MS = 20_000;
/** A generation is not started with less time than this left: it is carried instead. */
const MIN_TIME_PER_GENERATION_MS = 1500;
/** Hashes of the memory kept in the activation record (see below). */
const RECORD_SEEN = 1000;

/**
 * One poll: read the list, decide what is new (see generationState.ts), emit it oldest first.
 * Nothing in the state moves unless the list was read; a generation whose details or outputs
 * cannot be read is retried on later polls, then emitted with an `error` field. The new state is
 * saved by `commit`, once every part of the poll has succeeded.
 */
export async function pollGenerations(
	run: PollRun,
	options: TriggerOptions,
	activation: boolean,
): Promise<FamilyPoll> {
	const family = await openFamily(run, 'generations', activation, {
		read: readState,
		isCurrent: isCurrentState,
		write: writeState,
		forRecord: (decided) => ({
			...decided,
			seen: new SeenMemory(decided.seen).encode(RECORD_SEEN),
		}),
	});
	const state = family.state;
	let next: GenerationState | undefined;
	const save = (decided: GenerationState) => (next = decided);

	if (!state) {
		// First activation: what is already finished is the baseline, not an event. Only a read
		// that shows a list is one: an answer with no list would make the whole history new at the
		// next poll (an empty list is a starting point that still doubts itself: see emptyAtMs).
		const reading = await readGenerations(run, deepEnough());
		if (!reading.entries.length && !reading.emptyList) {
			run.n8n.logger.warn(
				'Social Content Trigger: the answer to the list of generations held no list; the starting point is taken at the next poll that shows one',
			);
			return { items: [], commit: family.commitOf(undefined) };
		}
		save(baseline(reading, run.clock.now()));
		return { items: [], commit: family.commitOf(next) };
	}
	if (state.v === 1) {
		const upgraded = fromV1(state, await readGenerations(run, deepEnough()), run.clock.now());
		const due = upgraded.finished.map((generation) => ({ generation, attempts: 0 }));
		const after = upgraded.next;
		const items = await emit(
			run,
			options,
			after,
			{ listed: [], pending: after.pending, finishedUpToMs: after.finishedUpToMs },
			due,
			[],
			save,
		);
		return { items, commit: family.commitOf(next) };
	}
	const upgrading = state.v !== 4;
	let current: GenerationState;
	let lookup: IdLookup;
	let seen: SeenMemory;
	if (state.v === 3) {
		({ state: current, seen: lookup } = fromV3(state));
		seen = new SeenMemory();
	} else {
		current = state.v === 2 ? fromV2(state) : state;
		lookup = seen = new SeenMemory(current.seen);
	}
	const owed = new Set(current.owed.map((entry) => entry.id));
	// Read on until a page shows a finished id already known (with none known, to the end); at an
	// upgrade, as deep as a baseline, so the new memory is built from the list itself.
	const knownOn = (page: IDataObject[]) =>
		page.some(
			(entry) => !isPending(entry) && (lookup.has(String(entry.id)) || owed.has(String(entry.id))),
		);
	const deep = deepEnough();
	const reading = await readGenerations(run, (page) => (upgrading ? deep(page) : !knownOn(page)));
	const decided = plan(current, reading, lookup);
	const firing = new Set(decided.finished.map((entry) => String(entry.id)));
	// Said only when finished generations were read and none of them fires (a hidden history).
	if (
		current.emptyAtMs !== undefined &&
		decided.listed.length > 0 &&
		!decided.listed.some((id) => firing.has(id))
	)
		run.n8n.logger.info(
			'Social Content Trigger: the list was empty when the trigger started; the generations it shows now are taken as what was there before, and do not fire',
		);
	const { finished, resolvedPending, checked } = await askForUnseen(run, decided.unseenPending);

	const listed = new Map(
		[...decided.finished, ...finished].map((entry) => [String(entry.id), entry]),
	);
	const due = [
		// Owed ones first: they finished before anything new.
		...current.owed.map((entry) => ({
			generation: listed.get(entry.id) ?? { id: entry.id, status: entry.status, outputs: [] },
			attempts: entry.attempts,
		})),
		...[...decided.finished, ...finished]
			.filter((entry) => !owed.has(String(entry.id)))
			.map((generation) => ({ generation, attempts: 0 })),
	];
	// Pending ids asked for this time go to the back of the line.
	const pending = [
		...decided.pending.filter((id) => !checked.includes(id)),
		...decided.pending.filter((id) => checked.includes(id)),
	];
	const items = await emit(
		run,
		options,
		current,
		{ ...decided, pending },
		due,
		resolvedPending,
		save,
		seen,
	);
	return { items, commit: family.commitOf(next) };
}

function isCurrentState(state: unknown): state is GenerationState {
	return (state as GenerationState | undefined)?.v === 4;
}

/** Reads on until a baseline's worth of entries has been read. */
function deepEnough(): (page: IDataObject[]) => boolean {
	let read = 0;
	return (page) => (read += page.length) < BASELINE_ENTRIES;
}

/** The list, newest pages first, while `readOn(page)` says so (and up to `maxPages`, and while the poll has time). */
async function readGenerations(
	run: PollRun,
	readOn: (page: IDataObject[]) => boolean,
	maxPages?: number,
): Promise<ListReading> {
	const entries: IDataObject[] = [];
	let emptyList = false;
	// No page cap but the poll's time: more new generations than a thousand pages must still be read.
	const pages = maxPages ?? Infinity;
	await walkPages(
		run,
		'/studio/generations',
		{ listKeys: ['generations'], maxPages: pages },
		(list) => {
			if (!entries.length && !list.length) emptyList = true;
			const page = list
				.map(normaliseGeneration)
				.filter((entry) => entry.id !== undefined && entry.id !== null && entry.id !== '');
			entries.push(...page);
			return readOn(page) && timeLeft(run) > MIN_TIME_PER_GENERATION_MS;
		},
	);
	return { entries, emptyList };
}

async function emit(
	run: PollRun,
	options: TriggerOptions,
	state: GenerationState,
	decided: Parameters<typeof settle>[1],
	due: Array<{ generation: IDataObject; attempts: number }>,
	resolvedPending: string[],
	save: (next: GenerationState) => void,
	seen?: SeenMemory,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	const fired: string[] = [];
	const owed: OwedGeneration[] = [];
	const carried: string[] = [];
	const tries = triesOf(run.n8n);

	for (const { generation, attempts } of due) {
		const id = String(generation.id);
		if (timeLeft(run) < MIN_TIME_PER_GENERATION_MS) {
			// Out of time: the rest waits for the next poll, in the same order, untried.
			if (attempts > 0) owed.push({ id, status: String(generation.status), attempts, error: '' });
			else carried.push(id);
			continue;
		}
		if (!matches(options, 'status', generation)) {
			fired.push(id); // passed over for good: not an event this trigger listens to
			continue;
		}
		try {
			const detailed = await withDetails(run, generation);
			if (matches(options, 'format', detailed)) {
				items.push(await generationItem(run.n8n, run, detailed, options));
			}
			fired.push(id);
			tries.delete(id);
		} catch (error) {
			if (timeLeft(run) <= 0) {
				// Cut off by the poll's budget, not by the generation: not a try.
				if (attempts > 0) owed.push({ id, status: String(generation.status), attempts, error: '' });
				else carried.push(id);
				continue;
			}
			// n8n may not save a poll that emits nothing (the durable scheduler without cursors):
			// the tries are also counted in this process, so they still add up.
			const made = Math.max(attempts, tries.get(id) ?? 0) + 1;
			const failure = {
				id,
				status: String(generation.status),
				attempts: made,
				error: messageOf(error).slice(0, MAX_ERROR_LENGTH),
			};
			if (made < MAX_ATTEMPTS && owed.length < MAX_OWED) {
				run.n8n.logger.warn(
					`Social Content Trigger: generation ${id} could not be read (try ${made} of ${MAX_ATTEMPTS}); it is tried again on the next poll: ${failure.error}`,
				);
				owed.push(failure);
				tries.set(id, made);
				continue;
			}
			// Never lost silently: after the last try it comes out with what failed, so the workflow can decide.
			items.push({
				json: {
					...(options.simplify ? simplifyGeneration(generation) : generation),
					error: `Could not read this generation's ${options.download ? 'details or outputs' : 'details'} after ${made} ${made === 1 ? 'try' : 'tries'}: ${messageOf(error)}`,
				},
			});
			fired.push(id);
			tries.delete(id);
		}
	}
	const firedIds = new Set(fired);
	const firedUpToMs = due
		.filter(({ generation }) => firedIds.has(String(generation.id)))
		.reduce<number | null>((mark, { generation }) => {
			const finishedAt = finishTimeMs(generation);
			return finishedAt === undefined || (mark !== null && mark >= finishedAt) ? mark : finishedAt;
		}, null);
	save(settle(state, decided, { fired, owed, carried, resolvedPending, firedUpToMs }, seen));
	return items;
}

/**
 * Pending generations the list did not show (a later page, or a list that is cut short), asked
 * for by id, a few per poll. A 404 means the generation is gone: it can never finish.
 */
async function askForUnseen(
	run: PollRun,
	unseen: string[],
): Promise<{ finished: IDataObject[]; resolvedPending: string[]; checked: string[] }> {
	const finished: IDataObject[] = [];
	const resolvedPending: string[] = [];
	const checked: string[] = [];
	for (const id of unseen.slice(0, DETAIL_READS_PER_POLL)) {
		if (timeLeft(run) < MIN_TIME_PER_GENERATION_MS) break;
		checked.push(id);
		try {
			const generation = await getGeneration(run, id);
			if (isPending(generation)) continue;
			finished.push(generation);
			resolvedPending.push(id);
		} catch (error) {
			if (String((error as { httpCode?: unknown }).httpCode) === '404') resolvedPending.push(id);
			else
				run.n8n.logger.warn(
					`Social Content Trigger: could not check generation ${id}; it is checked again later: ${messageOf(error)}`,
				);
		}
	}
	return { finished, resolvedPending, checked };
}

/** List entries may leave out outputs or format (the spec gives outputs "on read"): read the generation then. */
async function withDetails(run: PollRun, generation: IDataObject): Promise<IDataObject> {
	const outputs = (generation.outputs as unknown[] | undefined) ?? [];
	if (generation.status === 'failed' && generation.format !== undefined) return generation;
	if (outputs.length > 0 && generation.format !== undefined) return generation;
	const details = await getGeneration(run, String(generation.id));
	return {
		...generation,
		...details,
		outputs: (details.outputs as unknown[]).length ? details.outputs : outputs,
	};
}

/** Fetch Test Event: the latest finished generation that matches, read as a poll would; no state. */
export async function latestGeneration(
	run: PollRun,
	options: TriggerOptions,
): Promise<INodeExecutionData | undefined> {
	const { entries } = await readGenerations(run, () => false, 1);
	const matching = entries.filter((entry) => matches(options, 'status', entry));
	const latestFirst = matching.every((entry) => finishTimeMs(entry) !== undefined)
		? [...matching].sort((a, b) => (finishTimeMs(b) ?? 0) - (finishTimeMs(a) ?? 0))
		: matching;
	for (const generation of latestFirst) {
		const detailed = await withDetails(run, generation);
		if (matches(options, 'format', detailed)) {
			return await generationItem(run.n8n, run, detailed, options);
		}
	}
	return undefined;
}

/**
 * The trigger's filters, one at a time: the status is known from the list, the format only once
 * the generation is read in full (a list entry may not carry it). No format chosen: any format.
 */
function matches(
	options: TriggerOptions,
	filter: 'status' | 'format',
	generation: IDataObject,
): boolean {
	if (filter === 'status') return options.statuses.includes(String(generation.status));
	return !options.formats.length || options.formats.includes(String(generation.format));
}

/** The poll's budget: ours, or less when n8n gives the poll less (its durable engine says how much). */
export function pollBudgetMs(ctx: IPollFunctions): number {
	const given =
		typeof (ctx as Partial<IPollFunctions>).getPollBudgetMs === 'function'
			? Number(ctx.getPollBudgetMs())
			: NaN;
	return Number.isFinite(given) && given > 0
		? Math.min(POLL_TIME_BUDGET_MS, given * 0.8)
		: POLL_TIME_BUDGET_MS;
}

function timeLeft(run: PollRun): number {
	return (run.deadlineMs ?? Infinity) - run.clock.now();
}

/**
 * Failed tries per generation, per trigger, in this process: a floor under the state's count, for
 * the engine that does not save a poll that emits nothing. Lost at a restart (then counted anew).
 */
const triesByTrigger = new Map<string, Map<string, number>>();

function triesOf(ctx: IPollFunctions): Map<string, number> {
	const key = triggerKey(ctx);
	let tries = triesByTrigger.get(key);
	if (!tries) triesByTrigger.set(key, (tries = new Map()));
	// Bounded: only generations still owed matter.
	if (tries.size > MAX_OWED * 4) tries.clear();
	return tries;
}

function messageOf(error: unknown): string {
	return (error as Error)?.message ?? String(error);
}
