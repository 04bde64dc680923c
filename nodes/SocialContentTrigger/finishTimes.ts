import type { IDataObject } from 'n8n-workflow';

import { finishTimeMs, isPendingStatus, timeMs } from '../shared/shapes';
import { keyHash } from './idMemory';
import type { DueGeneration } from './generationState';

/**
 * Generation events on the service's own finish times (docs/trigger.md, "Lists with finish
 * times"). The invariant, which every rule below keeps:
 *   every finished generation whose finish time is above `floorMs`, and whose key
 *   (id|status|finish) is not in `known`, is owed; `known` holds every key fired or recorded above
 *   the floor; the floor moves only to a time below every finish a later read can show.
 * No rule reads n8n's clock: only times the service wrote (its entries and its `Date` header).
 */
export interface TimesState {
	v: 1;
	mode: 'times';
	/** Writes so far (see pollStore.ts). */
	seq: number;
	account?: string;
	/** Finishes at or below it are old; null: none yet (an empty list at the start). */
	floorMs: number | null;
	/** The two latest finish times served (ms), newest first: the mark is the second. */
	latestMs: number[];
	/** Keys fired or recorded above the floor, with their finish times (see KnownFinishes). */
	known: string;
	/** The order the last read showed (see `OrderWatch`). */
	order?: ListOrder;
	/** A list sorted oldest first: the page its last read crossed the floor on. */
	startPage?: number;
	/** Reads that may still stop early (or start at `startPage`) before a whole one (rule `whole-read-every`). */
	stopsLeft?: number;
	/** A read going on at the next poll. */
	read?: ReadPosition;
	/** Decided, not emitted yet, oldest first. */
	due: DueGeneration[];
	/** The starting point's read is going on: what it reads is recorded, not fired. */
	recording?: true;
	/**
	 * Ids seen queued or running (the newest MAX_PENDING): each fires when a read shows it finished,
	 * whatever its finish time says (rule `pending-fires`). Handed to the reading by positions
	 * should the list turn out to give no finish time.
	 */
	pending?: string[];
}

/** Where a read cut short goes on, and what its end will move the floor to. */
export interface ReadPosition {
	page: number;
	cursor?: string | number;
	/** Ids of the last entries read: the read goes on after them, wherever they moved. */
	anchors: string[];
	/** The floor this read sets when it ends, before OVERLAP (see `readBasis`). */
	basisMs: number | null;
	/** The first page this read started on (a list sorted oldest first). */
	firstPage: number;
	/** Keys this read fired or recorded above its basis (see KnownFinishes). */
	fresh?: string;
	/** A starting point's read: the service's clock as it began (what finished later is new). */
	recordUpToMs?: number;
	/** Known keys gave way during it (rule `known-bounded`): its floor is at least this. */
	floorAtLeastMs?: number;
	/** Its own keys gave way (it has passed them): the floor it ends with is at least this. */
	floorAtEndMs?: number;
}

/** How far finish times may be out of order (two workers' clocks) and still be the same moment. */
export const OVERLAP_MS = 10 * 60_000;
/** Keys kept above the floor, at most: past it the floor rises to the oldest kept (docs: L6). */
export const MAX_KNOWN = 3600;
/**
 * Rule `whole-read-every`: at least every WHOLE_EVERY-th read goes from the list's top to its end.
 * A stop rests on an order guessed from the times shown; a list sorted by a time it does not show
 * (creation, last update) can hold a new finish below it. Only a whole read moves the floor, so
 * the next whole read still finds such a finish above it, wherever it sits.
 */
export const WHOLE_EVERY = 5;

/**
 * How a list runs, as its times show: newest first by finish time or by last update (a read
 * stops below the floor), oldest first (a read starts where the floor was crossed), or `whole`
 * (no order a stop can rest on: by creation, by id, none): read to its end each time.
 */
export type ListOrder = 'byFinish' | 'byUpdate' | 'oldestFirst' | 'whole';

/** Entries with a time a list must show in a row before its order is believed. */
const ORDER_EVIDENCE = 3;

/** The sort time of an entry in a list of this order (undefined: none to stop on). */
export function sortTimeMs(entry: IDataObject, order: ListOrder | undefined): number | undefined {
	if (order === 'byFinish') return finishOf(entry);
	if (order === 'byUpdate') return timeMs(entry.updatedAt) ?? finishOf(entry);
	return undefined;
}

/** When a finished entry finished: its finish time, else its last update (never before it). */
export function finishOf(entry: IDataObject): number | undefined {
	if (isPendingStatus(entry.status)) return undefined;
	return finishTimeMs(entry) ?? timeMs(entry.updatedAt);
}

/**
 * Rule `order-by-times`: the order the entries show. A key orders a list newest first when most
 * steps between its times go down and every time is at most OVERLAP above the lowest one before
 * it, so that below an entry more than OVERLAP under the floor nothing can be above it (oldest
 * first: the same, the other way). Watched entry by entry, in constant time each.
 */
export class OrderWatch {
	private readonly trends = [finishOf, updatedMs, createdMs].map((read) => ({
		read,
		trend: new Trend(),
	}));

	see(entry: IDataObject): void {
		for (const { read, trend } of this.trends) trend.see(read(entry));
	}

	order(): ListOrder | undefined {
		const told = this.trends.map(({ trend }) => trend.way());
		if (told[0] === 'down') return 'byFinish';
		if (told[1] === 'down') return 'byUpdate';
		if (told.includes('up')) return 'oldestFirst';
		return told[0] === undefined || told[1] === undefined ? undefined : 'whole';
	}
}

const updatedMs = (entry: IDataObject) => timeMs(entry.updatedAt);
const createdMs = (entry: IDataObject) => timeMs(entry.createdAt);

/** Which way one kind of time goes ('mixed': neither within OVERLAP); undefined: too few. */
class Trend {
	private count = 0;
	private last = 0;
	private low = Infinity;
	private high = -Infinity;
	private down = 0;
	private up = 0;
	private keepsDown = true;
	private keepsUp = true;

	see(time: number | undefined): void {
		if (time === undefined) return;
		if (this.count++) {
			if (time < this.last) this.down++;
			if (time > this.last) this.up++;
			this.keepsDown &&= time <= this.low + OVERLAP_MS;
			this.keepsUp &&= time >= this.high - OVERLAP_MS;
		}
		[this.last, this.low, this.high] = [time, Math.min(this.low, time), Math.max(this.high, time)];
	}

	way(): 'down' | 'up' | 'mixed' | undefined {
		if (this.count < ORDER_EVIDENCE) return undefined;
		if (this.keepsDown && this.down >= 2 * this.up && this.down > 0) return 'down';
		if (this.keepsUp && this.up >= 2 * this.down && this.up > 0) return 'up';
		return this.down + this.up === 0 ? undefined : 'mixed';
	}
}

/** Rule `below-floor-stops`: a list newest first holds nothing new below this entry. */
export function endsRead(entry: IDataObject, state: TimesState): boolean {
	const time = sortTimeMs(entry, state.order);
	return state.floorMs !== null && time !== undefined && time < state.floorMs - OVERLAP_MS;
}

/**
 * The key a finish is known by: id and status; its finish time is kept beside it, and a finish
 * of the same key within SAME_FINISH_MS of a known one is that one (rule `finish-rewritten`: a
 * time written two ways, rewritten, or filled in after `done` showed). A run again finishes at
 * another time, so it fires again.
 */
export const finishKey = (entry: IDataObject): string =>
	`${String(entry.id)}|${String(entry.status)}`;

/** How far apart two finish times of one generation and status still are the same finish. */
export const SAME_FINISH_MS = 60_000;

/**
 * The keys above the floor: 6-byte hash and finish time in seconds, base64. Bounded: past
 * MAX_KNOWN the oldest finishes give way and the floor rises to the oldest kept.
 */
export class KnownFinishes {
	private readonly finishes = new Map<number, number>();

	constructor(encoded = '') {
		const bytes = Buffer.from(encoded, 'base64');
		for (let at = 0; at + RECORD_BYTES <= bytes.length; at += RECORD_BYTES)
			this.finishes.set(bytes.readUIntBE(at, 6), bytes.readUInt32BE(at + 6) * 1000);
	}

	/**
	 * Whether this finish is known: the key, at about this time (within `sameMs`; any time,
	 * without one). Kept to the second, rounded up: compared to the second too.
	 */
	matches(key: string, finishedMs: number | undefined, sameMs = SAME_FINISH_MS): boolean {
		const known = this.finishes.get(keyHash(key));
		if (known === undefined) return false;
		return finishedMs === undefined || Math.abs(known - finishedMs) <= sameMs + 1000;
	}

	add(key: string, finishedMs: number): void {
		this.finishes.set(keyHash(key), finishedMs);
	}

	/** Forgets what is at or below the floor; returns the floor, raised if too many are kept. */
	prune(floorMs: number | null, max = MAX_KNOWN): number | null {
		if (floorMs !== null)
			for (const [hash, finishedMs] of this.finishes)
				if (finishedMs <= floorMs) this.finishes.delete(hash);
		if (this.finishes.size <= max) return floorMs;
		const newestFirst = [...this.finishes].sort((a, b) => b[1] - a[1]);
		for (const [hash] of newestFirst.slice(max)) this.finishes.delete(hash);
		// Rule `known-bounded`: what gave way is at or below the new floor, so it stays old.
		return Math.max(floorMs ?? -Infinity, newestFirst[max][1]);
	}

	/** Takes in another's keys. */
	merge(other: KnownFinishes): void {
		for (const [hash, finishedMs] of other.finishes) this.finishes.set(hash, finishedMs);
	}

	encode(): string {
		const bytes = Buffer.alloc(this.finishes.size * RECORD_BYTES);
		let at = 0;
		for (const [hash, finishedMs] of this.finishes) {
			bytes.writeUIntBE(hash, at, 6);
			// Rounded up: a key is never forgotten while its finish is above the floor.
			bytes.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.ceil(finishedMs / 1000))), at + 6);
			at += RECORD_BYTES;
		}
		return bytes.toString('base64');
	}

	get size(): number {
		return this.finishes.size;
	}
}
/** A known key's record: 6 bytes of hash, 4 of finish time in seconds. */
const RECORD_BYTES = 10;

/** Rule `second-latest-mark`: the two latest finishes served, with this one (one 2099 moves nothing). */
export function withLatest(latestMs: number[], finishedMs: number): number[] {
	if (latestMs.includes(finishedMs)) return latestMs;
	return [...latestMs, finishedMs].sort((a, b) => b - a).slice(0, 2);
}

/** The mark: the second latest finish served (the latest alone when only one was). */
export const markOf = (latestMs: number[]): number | null =>
	latestMs.length ? latestMs[Math.min(1, latestMs.length - 1)] : null;

/**
 * Rule `floor-from-read-start`: the time a whole read moves the floor to (before OVERLAP): the
 * service's clock as the read began, its first page read: the lower of its `Date` and the mark
 * (a front end's `Date` ahead of its workers moves nothing past what they wrote). What finishes
 * during the read, wherever the list puts it, finishes after it (up to OVERLAP of clock skew),
 * so the next read still finds it.
 */
export function readBasis(serviceDateMs: number | undefined, latestMs: number[]): number | null {
	const markMs = markOf(latestMs);
	if (serviceDateMs === undefined || markMs === null) return serviceDateMs ?? markMs;
	return Math.min(serviceDateMs, markMs);
}

/**
 * The service's clock now, as late as its times say: the later of its `Date` and the mark (a
 * `Date` behind its workers places nothing they wrote in the future). Infinity: no time at all.
 */
export function serviceNowMs(serviceDateMs: number | undefined, latestMs: number[]): number {
	const nowMs = Math.max(serviceDateMs ?? -Infinity, markOf(latestMs) ?? -Infinity);
	return nowMs === -Infinity ? Infinity : nowMs;
}

/** The floor after a whole read whose basis was `basisMs`: it never goes down. */
export function floorAfter(floorMs: number | null, basisMs: number | null): number | null {
	if (basisMs === null) return floorMs;
	return Math.max(floorMs ?? -Infinity, basisMs - OVERLAP_MS);
}

/** Rule `above-floor-fires`: a finished entry is new when above the floor and not known. */
export function isNew(
	entry: IDataObject,
	state: Pick<TimesState, 'floorMs'>,
	known: KnownFinishes,
): boolean {
	const finishedMs = finishOf(entry);
	if (finishedMs === undefined) return false;
	if (state.floorMs !== null && finishedMs <= state.floorMs) return false;
	return !known.matches(finishKey(entry), finishedMs);
}

export function isTimesState(state: unknown): state is TimesState {
	const candidate = state as Partial<TimesState> | undefined;
	return (
		candidate?.v === 1 &&
		candidate.mode === 'times' &&
		typeof candidate.known === 'string' &&
		Array.isArray(candidate.latestMs) &&
		Array.isArray(candidate.due)
	);
}
