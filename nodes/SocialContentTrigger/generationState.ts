import type { IDataObject } from 'n8n-workflow';

import { finishTimeMs } from '../shared/shapes';
import { HASH_BYTES, InsertionMemory, SeenMemory, type IdLookup } from './idMemory';

export { SeenMemory };

/**
 * What the trigger remembers between polls (node static data, or n8n's durable poll cursor, which
 * is the same object to the node), and how it decides which generations are new. The spec gives a
 * generation only `id`, `status`, `credits` and outputs: no finish time, no order, no paging. So
 * the decision rests on what every list shows:
 *
 * 1. Memory (`seen`): a compact hash of every finished id the trigger has read (fired, or old at
 *    the baseline, or passed over by the filters), in the order the list last showed them, the
 *    newest MAX_SEEN. An id in it never fires again, wherever the list puts it, whatever its
 *    fields say (`updatedAt`, outputs moved), unless its finish time says it finished since (4).
 * 2. Statuses (`pending`): ids seen `queued`/`running`. One seen finished later fires, wherever the
 *    list puts it. One the read did not reach is asked for by id (a few per poll); 404: forgotten.
 * 3. Position: the list is newest first (by creation, completion or update). An unknown finished
 *    id above the lowest known one is new. One below it is old only when known ids fill at least
 *    half of the memory, or of the reading, above it: the memory keeps the newest, so such an id
 *    is past its reach (a deep page), or was out of view (a list cut to its newest entries). Fewer
 *    known ones above it (a generation that finished late or was changed floating to the top)
 *    place nothing: it is new.
 *    A list with no known id at all (every one replaced) is all new.
 * 4. Finish times, where the service gives them, place an id exactly (after the latest finish
 *    seen: new, even if its hash is remembered; well before it: old, even at the top of a list
 *    sorted by update).
 *
 * A reading with no entries (an empty or unrecognisable answer) moves nothing; an answer with no
 * list is never a starting point, and an empty list one that doubts itself (`emptyAtMs`). The state only grows to STATE_MAX_BYTES as JSON: the memory gives way to
 * the other parts from the bottom of the list, so what it keeps is always the newest, and an id
 * below the lowest one it holds is old by position (3). A hash can mistake a new id for a
 * remembered one: 48-bit hashes, MAX_SEEN held, see idMemory.ts for the odds.
 */
export interface GenerationState {
	v: 4;
	/** Writes so far: tells which of two copies of the state is newer (see ActivationRecord). */
	seq: number;
	/** 48-bit hashes of the finished ids read, newest (top of the list) first, base64. */
	seen: string;
	/** Ids seen queued or running (or carried over from a poll out of time): each fires when found finished. */
	pending: string[];
	/** Finished generations whose details or outputs could not be read yet, retried each poll. */
	owed: OwedGeneration[];
	/** Latest finish time seen (ms), when the service gives finish times; else null. */
	finishedUpToMs: number | null;
	/** Which instance and credential the state was read from (see stateCopies.ts). */
	source?: string;
	/**
	 * Set while every read since the starting point showed an empty list (n8n's clock at the first):
	 * a new account, or a service answering `[]` for a moment. See EMPTY_START_MAX_NEW.
	 */
	emptyAtMs?: number;
}

export interface OwedGeneration {
	id: string;
	status: string;
	/** Polls that have tried and failed so far. */
	attempts: number;
	error: string;
}

export const MAX_SEEN = 6000;
export const MAX_PENDING = 100;
export const MAX_OWED = 40;
/** Characters of an error kept for an owed generation. */
export const MAX_ERROR_LENGTH = 80;
/** The whole state as JSON, at most (n8n keeps it with the workflow). */
export const STATE_MAX_BYTES = 64 * 1024;
/** Polls a generation's detail read or download may fail before it is emitted with an `error`. */
export const MAX_ATTEMPTS = 5;
/**
 * Finish times are a guard, not a rule: an unknown id that finished this long before the newest
 * finish already seen was finished at the last poll too, so it only moved (a list sorted by update).
 * The slack absorbs a service that stamps a finish a moment before the list shows it.
 */
export const FINISH_GUARD_SLACK_MS = 60 * 1000;

/**
 * After a starting point on an empty list, the first read that shows generations: finished ones
 * with a finish time fire when they finished after the empty read (less this slack, for clocks
 * that differ); without one, they fire when there are at most EMPTY_START_MAX_NEW of them (a new
 * account's first generations). More than that is a history an empty answer hid: none fires.
 */
export const EMPTY_START_SLACK_MS = 15 * 60 * 1000;
export const EMPTY_START_MAX_NEW = 20;

const PENDING_STATUSES = ['queued', 'running'];
export function isPending(generation: IDataObject): boolean {
	return PENDING_STATUSES.includes(String(generation.status));
}

/** One poll's reading of the list: the entries in list order. */
export interface ListReading {
	entries: IDataObject[];
	/** The answer was a list with nothing in it (not an answer with no list at all). */
	emptyList?: boolean;
}

export interface Plan {
	/** Finished generations that fire now (before the status and format filters), oldest first. */
	finished: IDataObject[];
	/** Pending ids the reading did not show: to be asked for by id. */
	unseenPending: string[];
	/** Finished ids of the reading, in list order: what the memory holds after the poll, on top. */
	listed: string[];
	/** Pending ids once the reading is taken into account (fired ones are removed by `settle`). */
	pending: string[];
	finishedUpToMs: number | null;
	/** Kept while reads show no generation at all (see GenerationState.emptyAtMs). */
	emptyAtMs?: number;
}

/** The state at activation: every finished generation read is old; the pending ones are remembered. */
export function baseline(reading: ListReading, nowMs: number, seq = 0): GenerationState {
	const entries = dedupe(reading.entries);
	return fit(
		{
			v: 4,
			seq: seq + 1,
			seen: '',
			pending: unique(entries.filter(isPending).map((entry) => String(entry.id))).slice(
				-MAX_PENDING,
			),
			owed: [],
			finishedUpToMs: latestFinish(reading, null),
			...(entries.length ? {} : { emptyAtMs: nowMs }),
		},
		SeenMemory.of(finishedIds(entries)),
	);
}

/** The finished ids of a reading, in list order. */
function finishedIds(entries: IDataObject[]): string[] {
	return entries.filter((entry) => !isPending(entry)).map((entry) => String(entry.id));
}

/** Which finished generations of this reading are new since the state. */
export function plan(
	state: GenerationState,
	reading: ListReading,
	seen: IdLookup = new SeenMemory(state.seen),
): Plan {
	const idOf = (entry: IDataObject) => String(entry.id);
	const owed = new Set(state.owed.map((entry) => entry.id));
	const pending = new Set(state.pending);
	const entries = dedupe(reading.entries);

	const known = entries.map(
		(entry) =>
			!isPending(entry) &&
			!pending.has(idOf(entry)) &&
			(seen.has(idOf(entry)) || owed.has(idOf(entry))),
	);
	const lowestKnown = known.lastIndexOf(true);
	// Below this many remembered ones, an unknown id is past what the memory reaches, or past what
	// the list shows (a list cut to its newest entries, where a deletion above brings an old one
	// into view): old. Fewer above it (one that finished late or was changed floating to the top)
	// say nothing of its age.
	const pastMemory = Math.max(1, Math.floor(Math.min(seen.size, entries.length) / 2));
	let knownAbove = 0;
	const guardMs =
		state.finishedUpToMs === null ? null : state.finishedUpToMs - FINISH_GUARD_SLACK_MS;
	const afterEmpty = firstAfterEmpty(state, entries, seen, owed, pending);

	const finished: Array<{ entry: IDataObject; index: number }> = [];
	const stillPending: string[] = [];
	entries.forEach((entry, index) => {
		const id = idOf(entry);
		if (index > 0 && known[index - 1]) knownAbove++;
		if (isPending(entry)) {
			stillPending.push(id);
			return;
		}
		if (pending.has(id)) {
			finished.push({ entry, index });
			return;
		}
		if (owed.has(id)) return;
		const finishedAt = finishTimeMs(entry);
		const placedNew =
			finishedAt !== undefined &&
			state.finishedUpToMs !== null &&
			finishedAt > state.finishedUpToMs;
		// A finish time after every one seen places it, whatever a remembered hash says.
		if (placedNew) finished.push({ entry, index });
		else if (afterEmpty) {
			if (afterEmpty(entry)) finished.push({ entry, index });
		} else if (seen.has(id)) return;
		else {
			const placedOld = finishedAt !== undefined && guardMs !== null && finishedAt < guardMs;
			const placedAbove = index < lowestKnown || knownAbove < pastMemory;
			if (!placedOld && placedAbove) finished.push({ entry, index });
		}
	});

	const shown = new Set(entries.map(idOf));
	const firing = new Set(finished.map((found) => found.entry));
	const unseenPending = state.pending.filter((id) => !shown.has(id));
	return {
		finished: oldestFirst(finished),
		unseenPending,
		listed: finishedIds(entries),
		...(entries.length || state.emptyAtMs === undefined ? {} : { emptyAtMs: state.emptyAtMs }),
		pending: unique([...unseenPending, ...stillPending]),
		// Up to what is decided: one that fires later (carried over) must still be after the mark.
		finishedUpToMs: latestFinish(
			{ entries: entries.filter((entry) => !firing.has(entry)) },
			state.finishedUpToMs,
		),
	};
}

/**
 * The first read with generations after a starting point on an empty list: which unknown finished
 * ones fire (see EMPTY_START_MAX_NEW); undefined when that is not this read.
 */
function firstAfterEmpty(
	state: GenerationState,
	entries: IDataObject[],
	seen: IdLookup,
	owed: Set<string>,
	pending: Set<string>,
): ((entry: IDataObject) => boolean) | undefined {
	if (state.emptyAtMs === undefined) return undefined;
	const since = state.emptyAtMs - EMPTY_START_SLACK_MS;
	const unknown = entries.filter((entry) => {
		const id = String(entry.id);
		return !isPending(entry) && !pending.has(id) && !owed.has(id) && !seen.has(id);
	});
	const fewEnough = unknown.length <= EMPTY_START_MAX_NEW;
	return (entry) => {
		const finishedAt = finishTimeMs(entry);
		return finishedAt !== undefined ? finishedAt >= since : fewEnough;
	};
}

/** The state after a poll: what fired or was passed over is remembered, what is owed or carried is kept. */
export function settle(
	state: GenerationState,
	decided: Pick<Plan, 'listed' | 'pending' | 'finishedUpToMs' | 'emptyAtMs'>,
	outcome: {
		fired: string[];
		owed: OwedGeneration[];
		carried: string[];
		resolvedPending: string[];
		/** Latest finish time of what fired. */
		firedUpToMs?: number | null;
	},
	seen = new SeenMemory(state.seen),
): GenerationState {
	// What is still to fire stays out of the memory; the rest of the reading goes on top, in list
	// order, under what fired without being listed (read by id: finished since the list was read).
	const waiting = new Set([
		...outcome.carried,
		...outcome.owed.map((owed) => owed.id),
		...decided.pending,
	]);
	const listed = new Set(decided.listed);
	const fired = new Set(outcome.fired);
	const known = [
		...outcome.fired.filter((id) => !listed.has(id)).reverse(),
		...decided.listed.filter((id) => !waiting.has(id) || fired.has(id)),
	];
	const done = new Set([
		...outcome.resolvedPending,
		...outcome.fired,
		...outcome.owed.map((owed) => owed.id),
	]);
	// Generations still running first: once out of this list they could be placed nowhere. Carried
	// ones are unknown and above what fired, with finish times after the mark: the list places them.
	const pending = unique([...decided.pending.filter((id) => !done.has(id)), ...outcome.carried]);
	return fit(
		{
			v: 4,
			seq: state.seq + 1,
			seen: '',
			pending: pending.slice(0, MAX_PENDING),
			owed: outcome.owed
				.slice(0, MAX_OWED)
				.map((owed) => ({ ...owed, error: owed.error.slice(0, MAX_ERROR_LENGTH) })),
			finishedUpToMs: laterOf(decided.finishedUpToMs, outcome.firedUpToMs ?? null),
			source: state.source,
			...(decided.emptyAtMs === undefined ? {} : { emptyAtMs: decided.emptyAtMs }),
		},
		seen.withOnTop(known),
	);
}

/**
 * The memory gets what room the other parts leave under STATE_MAX_BYTES (JSON, under the node's
 * key); it gives way from the bottom of the list.
 */
function fit(state: GenerationState, seen = new SeenMemory(state.seen)): GenerationState {
	const rest = JSON.stringify({ generations: { ...state, seen: '' } }).length;
	const room = STATE_MAX_BYTES - rest - 64;
	// base64 of 6n bytes takes 8n characters.
	const fits = Math.max(0, Math.floor(room / ((HASH_BYTES / 3) * 4)) - 1);
	return { ...state, seen: seen.encode(Math.min(MAX_SEEN, fits)) };
}

function laterOf(a: number | null, b: number | null): number | null {
	return a === null ? b : b === null ? a : Math.max(a, b);
}

function latestFinish(reading: ListReading, finishedUpToMs: number | null): number | null {
	let mark = finishedUpToMs;
	for (const entry of reading.entries) {
		const finishedAt = finishTimeMs(entry);
		if (finishedAt !== undefined && (mark === null || finishedAt > mark)) mark = finishedAt;
	}
	return mark;
}

/** A paged list that shifted while it was read shows some ids twice: the first counts. */
function dedupe(entries: IDataObject[]): IDataObject[] {
	const shown = new Set<string>();
	return entries.filter((entry) => {
		const id = String(entry.id);
		if (shown.has(id)) return false;
		shown.add(id);
		return true;
	});
}

function unique(ids: string[]): string[] {
	return [...new Set(ids)];
}

/** Oldest first: by finish time when every one has it; else by list position, reversed (the list is newest first). */
function oldestFirst(found: Array<{ entry: IDataObject; index: number }>): IDataObject[] {
	const timed = found.map((item) => ({ ...item, time: finishTimeMs(item.entry) }));
	timed.sort((a, b) =>
		a.time !== undefined && b.time !== undefined && a.time !== b.time
			? a.time - b.time
			: b.index - a.index,
	);
	return timed.map(({ entry }) => entry);
}

/** Layout 3: as layout 4, with 32-bit FNV-1a hashes kept in the order they were written. */
export interface StateV3 extends Omit<GenerationState, 'v'> {
	v: 3;
}

/** Layout 2 (0.2.0): the first 50 finished ids, the last 100 fired, pending and owed ids. */
interface StateV2 {
	v: 2;
	head: string[];
	pending: string[];
	fired: string[];
	owed: OwedGeneration[];
	finishedUpToMs: number | null;
}

/** Layout 1 (0.1.0): a finish-time high-water mark (from `updatedAt` too) and up to 2,000 seen ids. */
interface StateV1 {
	v: 1;
	highWaterMs: number | null;
	seen: Record<string, number>;
	forgottenUpToMs?: number | null;
}
const V1_MAX_REMEMBERED = 2000;
const V1_SLACK_MS = 15 * 60 * 1000;

export type StoredState = GenerationState | StateV3 | StateV2 | StateV1;

/** The state in static data, in any layout; anything unreadable counts as no state. */
export function readState(staticData: IDataObject): StoredState | undefined {
	const state = staticData.generations as { v?: unknown } | undefined;
	if ([4, 3, 2, 1].includes(state?.v as number)) return state as StoredState;
	return undefined;
}

export function writeState(staticData: IDataObject, state: GenerationState): void {
	staticData.generations = state as unknown as IDataObject;
}

/**
 * Layout 3 carried over: its memory is read as it was written (32-bit hashes) for the first poll,
 * which reads as deep as a baseline, so the new memory is built from that reading, in list order.
 */
export function fromV3(old: StateV3): { state: GenerationState; seen: IdLookup } {
	return {
		state: { ...old, v: 4, seen: '' },
		seen: new InsertionMemory(old.seen),
	};
}

/**
 * Layout 2 carried over: its head and fired ids are the memory, so the first poll decides exactly
 * as layout 2 would have (an unknown id above its head is new), and nothing it fired fires again.
 */
export function fromV2(old: StateV2): GenerationState {
	const seen = SeenMemory.of([...old.head, ...[...old.fired].reverse()]);
	return fit(
		{
			v: 4,
			seq: 1,
			seen: '',
			pending: old.pending.slice(-MAX_PENDING),
			owed: old.owed.slice(0, MAX_OWED),
			finishedUpToMs: old.finishedUpToMs,
		},
		seen,
	);
}

/**
 * The first poll after the upgrade from layout 1: fires what layout 1 itself would have fired
 * correctly, and nothing it could have got wrong. Layout 1 knew every id it had seen only while it
 * saw no time at all (it dropped ids older than its mark, `updatedAt` included) and under its cap;
 * otherwise only a real finish time after its mark places a generation.
 */
export function fromV1(
	old: StateV1,
	reading: ListReading,
	nowMs: number,
): { finished: IDataObject[]; next: GenerationState } {
	const exactIds =
		Object.keys(old.seen).length < V1_MAX_REMEMBERED &&
		old.forgottenUpToMs == null &&
		old.highWaterMs === null;
	// Past its cap, layout 1 forgot the ids it wrote first; the one it wrote last (what it fired
	// last) is kept. When that one is the topmost id it knows in the list, what sits above it
	// finished after layout 1's last poll: a forgotten one would sit below it.
	const keys = Object.keys(old.seen);
	const lastWritten = keys.length ? keys[keys.length - 1] : undefined;
	const topKnown = reading.entries.findIndex(
		(entry) => !isPending(entry) && String(entry.id) in old.seen,
	);
	const newAbove =
		topKnown >= 0 && String(reading.entries[topKnown].id) === lastWritten ? topKnown : -1;
	const fires = reading.entries.filter((entry, index) => {
		if (isPending(entry) || String(entry.id) in old.seen) return false;
		const finishedAt = finishTimeMs(entry);
		if (finishedAt !== undefined && old.highWaterMs !== null) {
			if (old.forgottenUpToMs != null && finishedAt <= old.forgottenUpToMs) return false;
			return finishedAt > old.highWaterMs - V1_SLACK_MS;
		}
		return exactIds || index < newAbove;
	});
	const next = baseline(
		{ entries: reading.entries.filter((entry) => !fires.includes(entry)) },
		nowMs,
	);
	return {
		finished: oldestFirst(fires.map((entry) => ({ entry, index: reading.entries.indexOf(entry) }))),
		next,
	};
}
