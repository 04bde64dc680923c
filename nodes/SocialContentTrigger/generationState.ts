import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls (workflow static data, node scope), and how it decides
 * which generations are new. The spec gives a generation only `id`, `status`, `credits` and outputs:
 * no finish time, no order, no paging. So the decision rests on what every list shows:
 *
 * 1. Statuses. The trigger reads the list unfiltered, so it sees generations while they are
 *    `queued`/`running` and remembers those ids (`pending`). A pending id seen finished later fires,
 *    wherever the list puts it (out-of-order completion, creation order, any page). A pending id
 *    the read did not reach is asked for by id (a few per poll); 404 means deleted: forgotten.
 * 2. Position. The list is newest first (by creation or by completion): what was created and
 *    finished since the last poll stands above the finished ids that were at its top then
 *    (`head`). An unknown finished id above the last head id found is new; pages are read until a
 *    head id shows. Further down, nothing new can appear except a pending id finishing, which (1)
 *    covers. (Oldest-first lists are not supported without timestamps: a new id at the bottom
 *    looks the same as an old one that a deletion brought into a list cut to its newest N.)
 * 3. Memory of what fired (`fired`, the last ids) and of what could not be emitted yet (`owed`).
 *
 * Cases covered: no timestamps at all; one unpaged array of any length, or cut to its newest N;
 * paged lists; creation or completion order (unfinished ones on top or at the bottom); a
 * generation created earlier finishing later; fields of old generations changing (`updatedAt`,
 * outputs moved): fields are never compared, so nothing fires again; restarts (all of it is in
 * static data); failed polls (nothing moves until a poll succeeds).
 * Timestamps, where the service gives a finish time, only add a guard: a list re-sorted by update
 * time cannot fire an id that finished well before the newest finish already seen.
 * The one blind spot: every head id gone from the list at once (all 50 newest deleted, or more new
 * generations than a truncated list shows) with no finish times: then unknown ids do not fire, since
 * old ones cannot be told from new ones; a warning is logged.
 *
 * Size: at most HEAD_SIZE + FIRED_SIZE + MAX_PENDING + MAX_OWED ids, whatever the
 * number of generations.
 */
export interface GenerationState {
	v: 2;
	/** The first finished ids of the list at the last good poll, in list order. */
	head: string[];
	/** Ids seen queued or running and not seen finished since: each fires when it finishes. */
	pending: string[];
	/** The ids fired most recently, oldest first: never fired again. */
	fired: string[];
	/** Finished generations whose details or outputs could not be read yet, retried each poll. */
	owed: OwedGeneration[];
	/** Latest finish time seen (ms), when the service gives finish times; else null. */
	finishedUpToMs: number | null;
}

export interface OwedGeneration {
	id: string;
	status: string;
	/** Polls that have tried and failed so far. */
	attempts: number;
	error: string;
}

export const HEAD_SIZE = 50;
export const FIRED_SIZE = 100;
export const MAX_PENDING = 500;
export const MAX_OWED = 100;
/** Polls a generation's detail read or download may fail before it is emitted with an `error`. */
export const MAX_ATTEMPTS = 5;
/**
 * Finish times are a guard, not a rule: an unknown id that finished this long before the newest
 * finish already seen was finished at the last poll too, so it only moved (a list sorted by update).
 * The slack absorbs a service that stamps a finish a moment before the list shows it.
 */
export const FINISH_GUARD_SLACK_MS = 60 * 1000;

const PENDING_STATUSES = ['queued', 'running'];
/** Fields that say when a generation finished. `updatedAt` is not one: it moves whenever anything changes. */
const FINISH_TIME_FIELDS = ['finishedAt', 'completedAt', 'doneAt', 'failedAt', 'endedAt'];

export function isPending(generation: IDataObject): boolean {
	return PENDING_STATUSES.includes(String(generation.status));
}

/** When the generation reached its final status, if the service says. */
export function finishTimeMs(generation: IDataObject): number | undefined {
	for (const field of FINISH_TIME_FIELDS) {
		const value = generation[field];
		if (value === undefined || value === null || value === '') continue;
		const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(String(value));
		if (Number.isFinite(ms)) return ms;
	}
	return undefined;
}

/** One poll's reading of the list: the entries in list order. */
export interface ListReading {
	entries: IDataObject[];
}

export interface Plan {
	/** Finished generations that fire now (before the status and format filters), oldest first. */
	finished: IDataObject[];
	/** Pending ids the reading did not show: to be asked for by id. */
	unseenPending: string[];
	/** No head id was in the list: unknown ids fired only where a finish time placed them. */
	lostBearings: boolean;
	/** The state once these have been handled (owed is carried unchanged; the caller updates it). */
	next: GenerationState;
}

export function baseline(reading: ListReading): GenerationState {
	return {
		v: 2,
		fired: [],
		owed: [],
		...frame(reading, null),
		pending: reading.entries.filter(isPending).map((entry) => String(entry.id)).slice(-MAX_PENDING),
	};
}

/** Which finished generations of this reading are new since the state, and the state after. */
export function plan(state: GenerationState, reading: ListReading): Plan {
	const { entries } = reading;
	const idOf = (entry: IDataObject) => String(entry.id);
	const head = new Set(state.head);
	const known = new Set([...state.head, ...state.fired, ...state.owed.map((owed) => owed.id)]);
	const pending = new Set(state.pending);

	let lastHead = -1;
	entries.forEach((entry, index) => {
		if (head.has(idOf(entry))) lastHead = index;
	});
	// No finished generation in the list last time: every finished one now is new.
	const noHistory = state.head.length === 0;
	const lostBearings = !noHistory && lastHead < 0;
	const guardMs = state.finishedUpToMs === null ? null : state.finishedUpToMs - FINISH_GUARD_SLACK_MS;

	const finished: Array<{ entry: IDataObject; index: number }> = [];
	const stillPending: string[] = [];
	const seen = new Set<string>();
	entries.forEach((entry, index) => {
		const id = idOf(entry);
		if (seen.has(id)) return; // a paged list that shifted while it was read shows some ids twice
		seen.add(id);
		if (isPending(entry)) {
			stillPending.push(id);
			return;
		}
		if (pending.has(id)) {
			finished.push({ entry, index });
			return;
		}
		if (known.has(id)) return;
		const finishedAt = finishTimeMs(entry);
		if (guardMs !== null && finishedAt !== undefined && finishedAt < guardMs) return;
		const aboveHead = noHistory || index < lastHead;
		const placedByTime = lostBearings && finishedAt !== undefined && state.finishedUpToMs !== null && finishedAt > state.finishedUpToMs;
		if (aboveHead || placedByTime) finished.push({ entry, index });
	});

	const unseenPending = state.pending.filter((id) => !seen.has(id));
	return {
		finished: oldestFirst(finished),
		unseenPending,
		lostBearings,
		next: {
			...state,
			...frame(reading, state.finishedUpToMs),
			pending: [...unseenPending, ...stillPending].slice(-MAX_PENDING),
		},
	};
}

/** The state after the caller has handled a plan: what fired, what is owed, pending ids resolved by id. */
export function settle(
	next: GenerationState,
	outcome: { fired: string[]; owed: OwedGeneration[]; resolvedPending: string[] },
): GenerationState {
	const resolved = new Set([...outcome.resolvedPending, ...outcome.fired, ...outcome.owed.map((owed) => owed.id)]);
	const fired = [...next.fired.filter((id) => !outcome.fired.includes(id)), ...outcome.fired].slice(-FIRED_SIZE);
	return {
		...next,
		pending: next.pending.filter((id) => !resolved.has(id)).slice(-MAX_PENDING),
		fired,
		owed: outcome.owed,
	};
}

/** Head and finish-time mark of a reading. */
function frame(reading: ListReading, finishedUpToMs: number | null): Pick<GenerationState, 'head' | 'finishedUpToMs'> {
	const finishedIds = reading.entries.filter((entry) => !isPending(entry)).map((entry) => String(entry.id));
	let mark = finishedUpToMs;
	for (const entry of reading.entries) {
		const finishedAt = finishTimeMs(entry);
		if (finishedAt !== undefined && (mark === null || finishedAt > mark)) mark = finishedAt;
	}
	return {
		head: finishedIds.slice(0, HEAD_SIZE),
		finishedUpToMs: mark,
	};
}

/** Oldest first: by finish time when every one has it; else by list position, reversed (the list is newest first). */
function oldestFirst(found: Array<{ entry: IDataObject; index: number }>): IDataObject[] {
	const timed = found.map((item) => ({ ...item, time: finishTimeMs(item.entry) }));
	timed.sort((a, b) => (a.time !== undefined && b.time !== undefined && a.time !== b.time ? a.time - b.time : b.index - a.index));
	return timed.map(({ entry }) => entry);
}

/** Layout 1 (releases up to 0.1.0): a finish-time high-water mark and up to 2,000 seen ids. */
interface StateV1 {
	v: 1;
	highWaterMs: number | null;
	seen: Record<string, number>;
	forgottenUpToMs?: number | null;
}
const V1_MAX_REMEMBERED = 2000;
const V1_SLACK_MS = 15 * 60 * 1000;

/**
 * The state in static data, in the current layout. A v1 state is carried over on its first poll
 * (see `fromV1`); anything unreadable counts as no state (a new baseline, nothing fires).
 */
export function readState(staticData: IDataObject): GenerationState | StateV1 | undefined {
	const state = staticData.generations as { v?: unknown } | undefined;
	if (state?.v === 2 || state?.v === 1) return state as GenerationState | StateV1;
	return undefined;
}

export function writeState(staticData: IDataObject, state: GenerationState): void {
	staticData.generations = state as unknown as IDataObject;
}

/**
 * The first poll after the upgrade from v1: fires what v1 itself would have fired correctly, and
 * nothing it could have got wrong. v1 knew every id it had seen until it reached its 2,000-id cap;
 * past the cap it forgot ids, so then only finish times (never `updatedAt`) place a generation.
 */
export function fromV1(old: StateV1, reading: ListReading): Plan {
	const next = baseline(reading);
	const exactIds = Object.keys(old.seen).length < V1_MAX_REMEMBERED && old.forgottenUpToMs == null;
	const finished = reading.entries.filter((entry) => {
		if (isPending(entry) || String(entry.id) in old.seen) return false;
		const finishedAt = finishTimeMs(entry);
		if (finishedAt !== undefined && old.highWaterMs !== null) {
			if (old.forgottenUpToMs != null && finishedAt <= old.forgottenUpToMs) return false;
			return finishedAt > old.highWaterMs - V1_SLACK_MS;
		}
		return exactIds;
	});
	return {
		finished: oldestFirst(finished.map((entry) => ({ entry, index: reading.entries.indexOf(entry) }))),
		unseenPending: [],
		lostBearings: false,
		next,
	};
}
