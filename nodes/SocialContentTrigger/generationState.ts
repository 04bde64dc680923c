import type { IDataObject } from 'n8n-workflow';

import { finishTimeMs, PENDING_STATUSES } from '../shared/shapes';
import { hashesThatFit, KeyMemory } from './idMemory';

/**
 * What the trigger remembers of generations, and how it decides what is new (docs/trigger.md).
 * The spec gives no finish time, order or paging; each rule fails safe:
 * 1. `seen`: "id|status" of each finished one read, newest first; a key never fires twice.
 * 2. `pending`: ids seen queued or running fire when found finished (asked for by id if unlisted).
 * 3. Position: unknown above the lowest placed known one is new; below it, old. A whole list grown
 *    by exactly its unknown ones: all new. One showing nothing known: shorter, a new start.
 * 4. Finish times not ahead of n8n's clock place a generation exactly.
 * A read cut short by the poll's time goes on at the next (`scan`); decided ones wait in `due`.
 */
export interface GenerationState {
	/** The layout: a later release that changes it reads this to carry the state over. */
	v: 1;
	/** Writes so far: tells which of two copies of the state is newer (see pollStore.ts). */
	seq: number;
	/** 48-bit hashes of "id|status" of the finished generations read, newest first, base64. */
	seen: string;
	/** Ids seen queued or running: each fires when found finished. */
	pending: string[];
	/** Decided new, not emitted yet, oldest first (see DueGeneration). */
	due: DueGeneration[];
	/** Keys fired read by id, no list placing them: they say nothing of what sits below them. */
	unplaced?: string[];
	/** A read that goes on at the next poll (see ScanState). */
	scan?: ScanState;
	/** Latest finish time seen (ms), when the service gives finish times; else null. */
	finishedUpToMs: number | null;
	/** The finish guard's mark, while it differs: the mark of the last decision not `partial`. */
	guardUpToMs?: number | null;
	/** The account the state belongs to (see pollStore.ts). */
	account?: string;
	/** How long the list was at the last read that saw its end. */
	shown?: number;
	/** `shown` is only a floor: a read that stopped early has since read more (soak seed 51502). */
	shownAtLeast?: true;
	/** The next poll takes a new starting point (see pollGenerations.ts, a list replaced). */
	startAgain?: true;
	/** The list grows at its end (its times say so): it is read from its last page up. */
	direction?: 'oldestFirst';
	/** n8n's clock at the start, while every read since showed an empty list (see below). */
	emptyAtMs?: number;
}

/** `finishedMs`: its list's finish time (moves the mark as it fires); null: read by id. */
export type DueGeneration = [id: string, status: string, tries: number, finishedMs?: number | null];
export function newlyDue(entry: IDataObject, nowMs: number, byId = false): DueGeneration {
	const finishedMs = byId ? null : believableFinishMs(entry, nowMs);
	const [id, status] = [String(entry.id), String(entry.status)];
	return finishedMs === undefined ? [id, status, 0] : [id, status, 0, finishedMs];
}

/**
 * A read cut short: the page to go on from, and what it read in list order ("status|finish ms|id"
 * per unknown finished one, KNOWN_RUN per run of known ones, GAP where it left unknown ones out).
 */
export interface ScanState {
	page: number;
	cursor?: string | number;
	/** Going up a list that grows at its end (see `direction`). */
	backward?: true;
	read: string[];
	/** The ids of the last entries it read: where it stopped, should the list move up (stepBack). */
	last?: string[];
}
export const KNOWN_RUN = '*';
/** Where a read going on left out unknown ones it had read (see compactScan in pollGenerations.ts). */
export const GAP = '-';

export const LAYOUT = 1;
export const MAX_SEEN = 6000;
export const MAX_PENDING = 100;
/** Generations waiting to be emitted, at most: more stay unknown above them and are found again. */
export const MAX_DUE = 250;
/** Unknown generations a read cut short keeps: the deepest (oldest), the rest are read again. */
export const MAX_SCAN_READ = 250;
/** The whole state as JSON, at most (n8n keeps it with the workflow). */
export const STATE_MAX_BYTES = 64 * 1024;
/** Polls a generation's detail read or download may fail before it is emitted with an `error`. */
export const MAX_ATTEMPTS = 5;
/** An unknown one that finished this long before the newest finish seen only moved: old. */
export const FINISH_GUARD_SLACK_MS = 60 * 1000;
/** A finish time further ahead of n8n's clock than this is wrong (a bad record, a skewed clock): ignored. */
export const FUTURE_FINISH_MARGIN_MS = 5 * 60 * 1000;

/** After an empty start: finished after it less the slack; untimed, at most EMPTY_START_MAX_NEW. */
export const EMPTY_START_SLACK_MS = 15 * 60 * 1000;
export const EMPTY_START_MAX_NEW = 20;

export function isPending(generation: IDataObject): boolean {
	return PENDING_STATUSES.includes(String(generation.status));
}

export const keyOf = (id: string, status: string): string => `${id}|${status}`;
const idOfKey = (key: string): string => key.slice(0, key.lastIndexOf('|'));
export const entryKey = (entry: IDataObject) => keyOf(String(entry.id), String(entry.status));

/** One poll's reading of the list: the entries in list order, and how the read ended. */
export interface ListReading {
	entries: IDataObject[];
	/** The answer was a list with nothing in it (not an answer with no list at all). */
	emptyList?: boolean;
	/** The read reached the end of the list. */
	reachedEnd?: boolean;
	/** How many entries the whole list has, when the read saw its last page. */
	length?: number;
	/** Ids of running ones on the pages read, past where the read stopped: pending, and shown. */
	pendingElsewhere?: string[];
}

export interface Plan {
	/** Finished generations that fire now (before the status and format filters), oldest first. */
	finished: IDataObject[];
	/** Pending ids the reading did not show: to be asked for by id. */
	unseenPending: string[];
	/** Keys of the reading's finished generations, in list order: the memory's new top. */
	listed: string[];
	/** Pending ids once the reading is taken into account. */
	pending: string[];
	finishedUpToMs: number | null;
	emptyAtMs?: number;
	/** The read reached the end and showed nothing the memory holds: a new starting point. */
	replaced: boolean;
	/** Unknown ones it read were left out (a read going on's gap) or wait for a later read to decide. */
	partial?: true;
	shown?: number;
	shownAtLeast?: true;
}

/** A finish time n8n can believe: not ahead of its clock by more than the margin. */
export function believableFinishMs(entry: IDataObject, nowMs: number): number | undefined {
	const finishedAt = finishTimeMs(entry);
	return (finishedAt ?? Infinity) <= nowMs + FUTURE_FINISH_MARGIN_MS ? finishedAt : undefined;
}

/** The state at the starting point: every finished generation read is old; pending ones are remembered. */
export function baseline(reading: ListReading, nowMs: number): GenerationState {
	const entries = dedupe(reading.entries);
	const finished = entries.filter((entry) => !isPending(entry));
	return fit(
		{
			v: LAYOUT,
			seq: 1,
			seen: '',
			pending: unique([
				...entries.filter(isPending).map((entry) => String(entry.id)),
				...(reading.pendingElsewhere ?? []),
			]).slice(0, MAX_PENDING),
			due: [],
			finishedUpToMs: latestFinish(entries, null, nowMs),
			...(entries.length ? {} : { emptyAtMs: nowMs }),
			...(reading.length === undefined ? {} : { shown: reading.length }),
		},
		new KeyMemory().withOnTop(finished.map(entryKey)),
	);
}

/** Whether an entry is one the state knows as finished (remembered, or decided and waiting). */
export function knownTo(seen: KeyMemory, due: Set<string>): (entry: IDataObject) => boolean {
	return (entry) =>
		entry.knownRun === true ||
		(!isPending(entry) && (seen.has(entryKey(entry)) || due.has(String(entry.id))));
}

/** Which finished generations of this reading are new since the state. */
export function plan(
	state: GenerationState,
	reading: ListReading,
	nowMs: number,
	seen = new KeyMemory(state.seen),
): Plan {
	const due = new Set(state.due.map(([id]) => id));
	const pending = new Set(state.pending);
	const all = dedupe(reading.entries);
	const entries = all.filter((entry) => entry.gap !== true);
	const isKnown = knownTo(seen, due);
	const known = entries.map(isKnown);
	const unplaced = new Set(state.unplaced ?? []);
	// Not an anchor: one read only by id, or one whose finish time is wrong (misplaced by it).
	const lowestKnown = entries
		.map(
			(entry, index) =>
				known[index] &&
				!unplaced.has(entryKey(entry)) &&
				(finishTimeMs(entry) === undefined || believableFinishMs(entry, nowMs) !== undefined),
		)
		.lastIndexOf(true);
	// New ones above a gap (compactScan) wait for a read that has it. Old ones below a gap under the
	// lowest known one are not remembered (those left out would look new); above it they are, or
	// every read keeps them as the deepest unknown (a livelock).
	const anchor = lowestKnown < 0 ? -1 : all.indexOf(entries[lowestKnown]);
	const firstGap = all.findIndex((entry, index) => entry.gap === true && index > anchor);
	const lastGap = all.map((entry) => entry.gap === true).lastIndexOf(true);
	const belowGap = new Set(all.filter((_, index) => firstGap >= 0 && index > firstGap));
	const aboveGap = new Set(all.filter((_, index) => index < lastGap));
	const mark = state.finishedUpToMs;
	const guard = guardOf(state);
	const memoryEmpty = seen.size === 0 && due.size === 0;
	const emptyStart = state.emptyAtMs !== undefined && memoryEmpty;
	// None known: in a list not shorter, new ones pushed through a cut; in a shorter one, a new start.
	const shrank =
		state.shown === undefined || reading.length === undefined || reading.length < state.shown;
	// A whole list grown by exactly its unknown ones: nothing deleted or brought into view.
	const arrivals = entries.filter(
		(entry, index) => !known[index] && !pending.has(String(entry.id)) && !due.has(String(entry.id)),
	).length;
	const onlyArrivals =
		reading.reachedEnd === true &&
		arrivals > 0 &&
		state.shown !== undefined &&
		!state.shownAtLeast &&
		reading.length !== undefined &&
		reading.length - state.shown === arrivals;
	const replaced =
		!onlyArrivals &&
		!memoryEmpty &&
		lowestKnown < 0 &&
		reading.reachedEnd === true &&
		shrank &&
		entries.some((entry) => !isPending(entry));
	// Those a finish time cannot place (none, or not believable) are judged by how many there are.
	const fewNew =
		entries.filter(
			(entry, index) =>
				!isPending(entry) && !known[index] && believableFinishMs(entry, nowMs) === undefined,
		).length <= EMPTY_START_MAX_NEW;

	const finished: IDataObject[] = [];
	const deferred = new Set<IDataObject>();
	const stillPending: string[] = [];
	entries.forEach((entry, index) => {
		const id = String(entry.id);
		if (isPending(entry)) return void stillPending.push(id);
		if (due.has(id)) return;
		const finishedAt = believableFinishMs(entry, nowMs);
		const isNew = (() => {
			if (pending.has(id)) return true;
			// A finish time after all a list showed places it, unless only a read by id showed it yet.
			if (finishedAt !== undefined && mark !== null && finishedAt > mark)
				return !unplaced.has(entryKey(entry));
			if (known[index]) return false;
			// Seen with the other final status (failed, then run again under its id): a change.
			if (['done', 'failed'].some((status) => seen.has(keyOf(id, status)))) return true;
			if (emptyStart)
				return finishedAt !== undefined
					? finishedAt >= state.emptyAtMs! - EMPTY_START_SLACK_MS
					: fewNew;
			// Nothing finished when the trigger started (only pending ones): all of it is new.
			if (memoryEmpty) return true;
			if (finishedAt !== undefined && guard !== null && finishedAt < guard - FINISH_GUARD_SLACK_MS)
				return false;
			return onlyArrivals || (lowestKnown < 0 ? !replaced : index < lowestKnown);
		})();
		if (isNew && aboveGap.has(entry)) deferred.add(entry);
		else if (isNew) finished.push(entry);
	});

	// A read that stopped early saw at least its entries: a clean-up of them later is a shrink.
	const floor =
		reading.length === undefined && state.shown !== undefined && entries.length > state.shown;
	const elsewhere = reading.pendingElsewhere ?? [];
	const shown = new Set([...entries.map((entry) => String(entry.id)), ...elsewhere]);
	const firing = new Set(finished);
	const unseenPending = state.pending.filter((id) => !shown.has(id));
	const listed = entries
		.filter(
			(entry) =>
				!isPending(entry) &&
				entry.knownRun !== true &&
				!deferred.has(entry) &&
				(!belowGap.has(entry) || firing.has(entry)),
		)
		.map(entryKey);
	return {
		finished: oldestFirst(finished, nowMs),
		unseenPending,
		listed,
		replaced,
		...(lastGap >= 0 || deferred.size ? { partial: true } : {}),
		shown: floor ? entries.length : (reading.length ?? state.shown),
		...(floor || (reading.length === undefined && state.shownAtLeast)
			? { shownAtLeast: true }
			: {}),
		...(emptyStart && !entries.length ? { emptyAtMs: state.emptyAtMs } : {}),
		pending: unique([...unseenPending, ...stillPending, ...elsewhere]),
		// Up to what is decided: one that fires later (still due) must still be after the mark.
		finishedUpToMs: latestFinish(
			entries.filter((entry) => !firing.has(entry) && !deferred.has(entry)),
			mark,
			nowMs,
		),
	};
}

/** The state after a poll: what fired or was passed over is remembered; what is due is kept. */
export function settle(
	state: GenerationState,
	decided: Pick<
		Plan,
		'listed' | 'pending' | 'finishedUpToMs' | 'emptyAtMs' | 'shown' | 'shownAtLeast' | 'partial'
	>,
	outcome: {
		/** Keys of what fired or was passed over, in the order emitted. */
		fired: string[];
		due: DueGeneration[];
		/** Keys decided new that did not fire and are not due (more than MAX_DUE): kept out of the memory. */
		open?: string[];
		resolvedPending: string[];
		/** Ids read by id, not in a list: what fired of them is known but not placed (see `unplaced`). */
		readById?: Set<string>;
		scan?: ScanState;
		/** Latest finish time of what fired. */
		firedUpToMs?: number | null;
	},
	seen = new KeyMemory(state.seen),
): GenerationState {
	// What is due stays out of the memory; the reading goes on top, under what fired unlisted.
	const waiting = new Set([
		...outcome.due.map(([id, status]) => keyOf(id, status)),
		...(outcome.open ?? []),
	]);
	const listed = new Set(decided.listed);
	const firedUnlisted = outcome.fired.filter((key) => !listed.has(key));
	const known = [
		...[...firedUnlisted].reverse(),
		...decided.listed.filter((key) => !waiting.has(key)),
	];
	// Only what a read by id showed: one decided from an earlier list was placed then.
	const firedById = firedUnlisted.filter((key) => outcome.readById?.has(idOfKey(key)));
	const unplaced = [...new Set([...firedById, ...(state.unplaced ?? [])])]
		.filter((key) => !listed.has(key))
		.slice(0, MAX_PENDING);
	const due = outcome.due.slice(0, MAX_DUE);
	const dueKeys = new Set(due.map(([id, status]) => keyOf(id, status)));
	// While unknown ones wait for a later read (left out, or past MAX_DUE), a later finish fired (a
	// run again) must not place them old: the guard's mark stays.
	const leftOut = decided.partial || outcome.scan || [...waiting].some((key) => !dueKeys.has(key));
	const mark = laterOf(decided.finishedUpToMs, outcome.firedUpToMs ?? null);
	const guard = leftOut ? guardOf(state) : mark;
	const done = new Set([
		...outcome.resolvedPending,
		...[...outcome.fired, ...waiting].map(idOfKey),
	]);
	return fit(
		{
			v: LAYOUT,
			seq: state.seq + 1,
			seen: '',
			pending: decided.pending.filter((id) => !done.has(id)).slice(0, MAX_PENDING),
			due,
			...(unplaced.length ? { unplaced } : {}),
			...(outcome.scan ? { scan: outcome.scan } : {}),
			finishedUpToMs: mark,
			...(guard === mark ? {} : { guardUpToMs: guard }),
			account: state.account,
			...(state.direction ? { direction: state.direction } : {}),
			...(decided.shown === undefined ? {} : { shown: decided.shown }),
			...(decided.shownAtLeast ? { shownAtLeast: true } : {}),
			...(decided.emptyAtMs === undefined || known.length ? {} : { emptyAtMs: decided.emptyAtMs }),
		},
		seen.withOnTop(known),
	);
}

/** The memory gets what room the other parts leave under STATE_MAX_BYTES (JSON, under the node's key). */
function fit(state: GenerationState, seen: KeyMemory): GenerationState {
	const rest = JSON.stringify({ generations: { ...state, seen: '' } }).length;
	const fits = hashesThatFit(STATE_MAX_BYTES - rest - 64);
	return { ...state, seen: seen.encode(Math.min(MAX_SEEN, fits)) };
}

/** The finish guard's mark: unknown ones finished over a minute before it only moved (old). */
const guardOf = (state: GenerationState): number | null =>
	state.guardUpToMs === undefined ? state.finishedUpToMs : state.guardUpToMs;

const laterOf = (a: number | null, b: number | null): number | null =>
	a === null ? b : b === null ? a : Math.max(a, b);

const latestFinish = (entries: IDataObject[], mark: number | null, nowMs: number) =>
	entries.reduce(
		(latest, entry) => laterOf(latest, believableFinishMs(entry, nowMs) ?? null),
		mark,
	);

/** A paged list that shifted while it was read shows some ids twice: the first counts. */
function dedupe(entries: IDataObject[]): IDataObject[] {
	const shown = new Set<string>();
	return entries.filter((entry) => !shown.has(String(entry.id)) && shown.add(String(entry.id)));
}

const unique = (ids: string[]): string[] => [...new Set(ids)];

/**
 * Oldest first: untimed ones by list position reversed, then by finish time. One order for all,
 * so what stays due finished no earlier than what fired: the mark stays below it.
 */
function oldestFirst(entries: IDataObject[], nowMs: number): IDataObject[] {
	const timeOf = (entry: IDataObject) => believableFinishMs(entry, nowMs) ?? -Infinity;
	const timed = entries.map((entry, at) => ({ entry, at, time: timeOf(entry) }));
	timed.sort((a, b) => (a.time === b.time ? b.at - a.at : a.time < b.time ? -1 : 1));
	return timed.map(({ entry }) => entry);
}

/** Whether a value is a state of this layout (anything else, a broken value too, counts as none). */
export function isCurrentState(state: unknown): state is GenerationState {
	const candidate = state as Partial<GenerationState> | undefined;
	return (
		candidate?.v === LAYOUT &&
		typeof candidate.seen === 'string' &&
		Array.isArray(candidate.pending) &&
		Array.isArray(candidate.due)
	);
}
