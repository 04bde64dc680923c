import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { walkPages, type PagePosition } from '../shared/paging';
import { isPendingStatus, normaliseGeneration } from '../shared/shapes';
import type { RunContext } from '../shared/transport';
import { emit, messageOf, type EmitOptions } from './emitDue';
import {
	endsRead,
	finishKey,
	finishOf,
	floorAfter,
	isNew,
	KnownFinishes,
	MAX_KNOWN,
	OrderWatch,
	OVERLAP_MS,
	SAME_FINISH_MS,
	readBasis,
	serviceNowMs,
	WHOLE_EVERY,
	withLatest,
	type ListOrder,
	type ReadPosition,
	type TimesState,
} from './finishTimes';
import { MAX_DUE, MAX_PENDING, MAX_SEEN, type ListReading } from './generationState';
import { asNodeError, timeLeft, type FamilyPoll } from './pollStore';

type PollRun = RunContext<IPollFunctions>;

/**
 * The time a read leaves for emitting what is due: each due one may need its details read (or its
 * files), so up to half the poll while many are due, and at least MIN_EMIT_MS.
 */
const EMIT_MS_PER_DUE = 300;
const MIN_EMIT_MS = 2000;
/** A read goes on in the same poll, after emitting, while at least this is left. */
const MIN_READ_MS = 3000;
/** Ids of the last entries a read cut short keeps, to go on after them. */
const ANCHORS = 20;
/** Pages a read going on looks back for where it stopped (deletions moved it up). */
const MAX_STEP_BACK = 10;

/** What one poll's read found, and where it ends. */
interface TimesRead {
	state: TimesState;
	/** Entries decided new this poll, by id, as listed (for their outputs). */
	listed: Map<string, IDataObject>;
	/** The first list answer held no list at all: nothing to learn from it. */
	noList?: true;
	/** It showed finished entries without any time. */
	untimed?: boolean;
	/** It stopped with MAX_DUE decided. */
	dueFull?: boolean;
	/** It was cut by a failed request. */
	failed?: boolean;
	/** While recording: what was read (a list read by positions starts from it; see ListReading). */
	entries: IDataObject[];
	pendingElsewhere?: string[];
	length?: number;
}

/** The state a starting point begins from: it records what it reads until its read ends. */
export const startingState = (): TimesState => ({
	v: 1,
	mode: 'times',
	seq: 1,
	floorMs: null,
	latestMs: [],
	known: '',
	due: [],
	recording: true,
});

/**
 * One poll on a list with finish times: read on (rules in finishTimes.ts), emit what is due,
 * oldest finish first. A failure mid-read keeps what was read; the read goes on from there.
 */
export async function pollByFinishTimes(
	run: PollRun,
	options: EmitOptions,
	start: TimesState,
	commitOf: (next: TimesState | undefined) => FamilyPoll['commit'],
): Promise<FamilyPoll & { positions?: ListReading }> {
	const items: FamilyPoll['items'] = [];
	let state = start;
	for (;;) {
		const reading = await readOn(run, state);
		if (reading.noList) {
			run.n8n.logger.warn(
				'Social Content Trigger: the answer to the list of generations held no list; what is due still comes out',
			);
			const emitted = await emit(run, options, state.due);
			items.push(...emitted.items);
			// A starting point is taken only on an answer that shows a list.
			const untaken = state.recording && !state.read && !items.length;
			return { items, commit: commitOf(untaken ? undefined : { ...state, due: emitted.due }) };
		}
		if (reading.untimed && !reading.state.latestMs.length && !items.length) {
			// Finished ones with no time at all, and none with one: the list is read by positions.
			const { entries, pendingElsewhere, length } = reading;
			return {
				items: [],
				commit: commitOf(undefined),
				positions: { entries, pendingElsewhere, length },
			};
		}
		const due = [...reading.state.due].sort((a, b) => (a[3] ?? 0) - (b[3] ?? 0));
		const emitted = await emit(run, options, due, reading.listed);
		items.push(...emitted.items);
		state = { ...reading.state, due: emitted.due };
		// A read held at MAX_DUE, or by the time it left for emitting, goes on once what it decided is
		// out, while the poll has time; one cut by a failure waits for the next poll.
		const goesOn = reading.state.read !== undefined && !reading.failed;
		if (!goesOn || emitted.due.length || timeLeft(run) < MIN_READ_MS) break;
	}
	return { items, commit: commitOf(state) };
}

/** Reads from where the last read stopped (or the top) while the poll's read share lasts. */
async function readOn(run: PollRun, state: TimesState): Promise<TimesRead> {
	const known = new KnownFinishes(state.known);
	const left = Math.max(0, timeLeft(run));
	const forEmitting = Math.min(left / 2, Math.max(MIN_EMIT_MS, state.due.length * EMIT_MS_PER_DUE));
	const untilMs = run.clock.now() + left - forEmitting;
	const read: ReadPosition = state.read ?? freshRead(state);
	const reader = new PageReader(state, read, known, () => run.serviceDateMs);
	try {
		const from = await resumeAt(run, read, reader);
		if (from !== 'done')
			await walkPages(run, PATH, { listKeys: LIST_KEYS, from, maxPages: Infinity }, (list, next) =>
				reader.visit(list, next, run.clock.now() < untilMs),
			);
	} catch (error) {
		if (!reader.pages) throw asNodeError(run.n8n, error);
		run.n8n.logger.warn(
			`Social Content Trigger: a page of the list of generations could not be read; what was read is kept and the read goes on from that page at the next poll: ${messageOf(error)}`,
		);
		reader.cut = reader.failed = true;
	}
	if (reader.noList) return { state, listed: new Map(), noList: true, entries: [] };
	return {
		state: reader.finish(),
		listed: reader.listed,
		untimed: reader.untimed,
		dueFull: reader.dueFull,
		failed: reader.failed,
		entries: reader.entries,
		pendingElsewhere: reader.pendingBeyond,
		...(reader.cut ? {} : { length: reader.shown }),
	};
}

const PATH = '/studio/generations';
const LIST_KEYS = ['generations'];

/**
 * A read from the top, or (a list sorted oldest first, when this read need not be whole) from
 * where the floor was crossed.
 */
function freshRead(state: TimesState): ReadPosition {
	const mayStop = (state.stopsLeft ?? 0) > 0;
	const firstPage = state.order === 'oldestFirst' && mayStop ? (state.startPage ?? 1) : 1;
	return { page: firstPage, anchors: [], basisMs: null, firstPage };
}

/**
 * Where a read goes on: after the last entries it read (rule `resume-after-last-read`), stepping
 * back over pages that deletions above moved them up to; a fresh read on a list sorted oldest
 * first steps back while its first page is above the floor. 'done': the read ended there.
 */
async function resumeAt(
	run: PollRun,
	read: ReadPosition,
	reader: PageReader,
): Promise<PagePosition | 'done'> {
	if (read.cursor !== undefined) return { page: read.page, cursor: read.cursor };
	const anchors = new Set(read.anchors);
	for (let page = read.page, back = 0; page >= 1 && back <= MAX_STEP_BACK; page--, back++) {
		const { list, next } = await readPage(run, page);
		const entries = list.map(normaliseGeneration);
		const after = lastAnchorIndex(entries, anchors);
		const aboveFloor = !anchors.size && page > 1 && reader.startsAboveFloor(entries);
		if (after < 0 && page > 1 && (anchors.size ? true : aboveFloor)) continue;
		// Found (or nothing to find): read from here, past what was read before.
		if (!reader.visit(list.slice(after + 1), next, true, page)) return 'done';
		return next ?? 'done';
	}
	run.n8n.logger.warn(
		`Social Content Trigger: the place a read of the list of generations stopped at moved more than ${MAX_STEP_BACK} pages; it goes on from the same page`,
	);
	return { page: read.page };
}

function lastAnchorIndex(entries: IDataObject[], anchors: Set<string>): number {
	for (let index = entries.length - 1; index >= 0; index--)
		if (anchors.has(String(entries[index].id))) return index;
	return -1;
}

/** One page of the list, as it answers, and where the next one is. */
async function readPage(
	run: PollRun,
	page: number,
): Promise<{ list: unknown[]; next?: PagePosition }> {
	let list: unknown[] = [];
	let nextPage: PagePosition | undefined;
	const options = { listKeys: LIST_KEYS, from: { page }, maxPages: 1 };
	const { next } = await walkPages(run, PATH, options, (answer, after) => {
		list = answer;
		nextPage = after;
		return false;
	});
	return { list, next: next ?? nextPage };
}

/** Decides each entry of the pages a read visits (rules in finishTimes.ts). */
class PageReader {
	readonly listed = new Map<string, IDataObject>();
	pages = 0;
	cut = false;
	untimed = false;
	dueFull = false;
	failed = false;
	/** Ids seen queued or running, oldest first (see TimesState.pending). */
	readonly pending: Set<string>;
	/** While recording, what was read (up to MAX_SEEN): a list read by positions starts from it. */
	readonly entries: IDataObject[] = [];
	/** While recording, pending ones read past MAX_SEEN, and how many were read in all. */
	readonly pendingBeyond: string[] = [];
	shown = 0;
	noList = false;
	private ended = false;
	private order: ListOrder | undefined;
	private orderBroken = false;
	private readonly watch = new OrderWatch();
	private latestMs: number[];
	private readonly due: TimesState['due'];
	private position: PagePosition | undefined;
	private anchors: string[];
	private basisMs: number | null;
	private readonly readFloor: Pick<TimesState, 'floorMs'>;
	/** While recording: the service's clock as the read began (what finished later is new). */
	private recordUpToMs = Infinity;
	/** What this read fired or recorded: kept apart, so a read cut short keeps only what it needs. */
	private readonly fresh: KnownFinishes;
	private readonly pageFinishes: Array<[page: number, firstMs: number | undefined]> = [];

	constructor(
		private readonly state: TimesState,
		private readonly read: ReadPosition,
		private readonly known: KnownFinishes,
		/** The service's clock at its last answer (read at a fresh read's first page). */
		private readonly serviceDateMs: () => number | undefined,
	) {
		this.order = state.order;
		this.latestMs = state.latestMs;
		this.due = [...state.due];
		this.anchors = [...read.anchors];
		this.basisMs = read.basisMs;
		this.recordUpToMs = read.recordUpToMs ?? Infinity;
		// Rule `known-bounded` within a read: what gave way of its own keys is below this.
		const floorMs = Math.max(state.floorMs ?? -Infinity, read.floorAtLeastMs ?? -Infinity);
		this.readFloor = { floorMs: floorMs === -Infinity ? null : floorMs };
		this.fresh = new KnownFinishes(read.fresh);
		this.pending = new Set(state.pending);
		this.position = { page: read.page, cursor: read.cursor };
	}

	/** A list sorted oldest first whose page starts above the floor: the crossing is further up. */
	startsAboveFloor(entries: IDataObject[]): boolean {
		const first = entries.map((entry) => finishOf(entry)).find((ms) => ms !== undefined);
		return this.state.floorMs !== null && first !== undefined && first > this.state.floorMs;
	}

	/** Takes one page; whether to read on. */
	visit(list: unknown[], next: PagePosition | undefined, inTime: boolean, page?: number): boolean {
		const at = page ?? this.position?.page ?? 1;
		this.pages++;
		const entries = list.map(normaliseGeneration).filter((entry) => entry.id !== undefined);
		if (list.length && !entries.length) {
			// An answer with no list in it: nothing learnt; a read going on tries this page again.
			this.noList = this.pages === 1;
			this.position = { page: at };
			this.cut = true;
			return false;
		}
		this.pageFinishes.push([at, entries.map(finishOf).find((ms) => ms !== undefined)]);
		if (this.pages === 1 && !this.read.anchors.length) this.setBasis(entries);
		for (const [index, entry] of entries.entries()) {
			this.take(entry);
			if (this.ended) return false;
			if (this.due.length >= MAX_DUE) {
				// Rule `due-bounded`: the rest is read at the next poll, from here.
				this.anchors = entries.slice(Math.max(0, index + 1 - ANCHORS), index + 1).map(idOf);
				this.position = { page: at };
				this.cut = this.dueFull = true;
				return false;
			}
		}
		this.anchors = [...this.anchors, ...entries.map(idOf)].slice(-ANCHORS);
		this.position = next;
		if (!next) return false;
		this.cut = !inTime;
		return inTime;
	}

	/** Rule `floor-from-read-start`: what the first page served finished before the read began. */
	private setBasis(entries: IDataObject[]): void {
		let latest = this.latestMs;
		for (const entry of entries) {
			const finishedMs = finishOf(entry);
			if (finishedMs !== undefined) latest = withLatest(latest, finishedMs);
		}
		this.basisMs = readBasis(this.serviceDateMs(), latest);
		// Seen by the starting point's read, it finished before that read or while it went on: only
		// what finished more than OVERLAP after it began is new (a Date is to the second, workers skew).
		this.recordUpToMs = serviceNowMs(this.serviceDateMs(), latest) + OVERLAP_MS;
	}

	private take(entry: IDataObject): void {
		if (this.state.recording) {
			this.shown++;
			if (this.entries.length < MAX_SEEN) this.entries.push(entry);
			else if (isPendingStatus(entry.status)) this.pendingBeyond.push(String(entry.id));
		}
		this.checkOrder(entry);
		const id = String(entry.id);
		if (isPendingStatus(entry.status)) {
			this.pending.delete(id);
			this.pending.add(id);
			return;
		}
		// Rule `pending-fires`: one seen queued or running fires once it shows finished.
		const wasPending = this.pending.delete(id);
		const finishedMs = finishOf(entry);
		this.untimed ||= finishedMs === undefined;
		if (finishedMs !== undefined) this.latestMs = withLatest(this.latestMs, finishedMs);
		const key = finishKey(entry);
		if (this.state.recording) {
			// Rule `starting-point-on-service-clock`: what finished after the read began is new; a
			// finish dated past the service's clock now (2099) was there before, and is recorded.
			if (finishedMs !== undefined && !this.finishedDuringStart(finishedMs))
				this.fresh.add(key, finishedMs);
		} else if (
			!this.fresh.matches(key, finishedMs, wasPending ? 0 : SAME_FINISH_MS) &&
			(isNew(entry, this.readFloor, this.known) ||
				(wasPending && !this.known.matches(key, finishedMs, 0)))
		) {
			// One with no time is kept until the floor passes this read's basis.
			this.fresh.add(key, finishedMs ?? this.basisMs ?? 0);
			this.due.push(
				finishedMs === undefined
					? [id, String(entry.status), 0]
					: [id, String(entry.status), 0, finishedMs],
			);
			this.listed.set(id, entry);
		}
		if (finishedMs === undefined) return;
		// A stop rests on the order this read's own finished entries show, never on the last read's.
		const confirmed = !this.orderBroken && this.watch.order() === this.order;
		if (confirmed && this.mayStop() && endsRead(entry, this.stopFloor())) this.ended = true;
	}

	/** While recording: a finish after the read began, and not past the service's clock now. */
	private finishedDuringStart(finishedMs: number): boolean {
		const nowMs = Math.max(this.serviceDateMs() ?? -Infinity, this.recordUpToMs - OVERLAP_MS);
		return finishedMs > this.recordUpToMs && finishedMs <= nowMs + OVERLAP_MS;
	}

	/**
	 * Rule `whole-read-every`: a starting point may stop; another read within the poll it began
	 * in (one that goes on is whole), while stops are left and the known keys (all kept until a
	 * whole read moves the floor) fill less than half their room.
	 */
	private mayStop(): boolean {
		if (this.state.recording) return true;
		if (this.state.read) return false;
		return (this.state.stopsLeft ?? 0) > 0 && this.known.size < MAX_KNOWN / 2;
	}

	/** The floor a read stops below: while recording, the one its end will set. */
	private stopFloor(): TimesState {
		const floorMs = this.state.recording ? floorAfter(null, this.basisMs) : this.state.floorMs;
		return { ...this.state, floorMs, order: this.order };
	}

	/** The order believed is checked on every finished entry; one that breaks it: a whole read. */
	private checkOrder(entry: IDataObject): void {
		if (this.orderBroken || isPendingStatus(entry.status)) return;
		this.watch.see(entry);
		const shown = this.watch.order();
		if (shown === undefined) return;
		if (this.order !== undefined && shown !== this.order) this.orderBroken = true;
		this.order = shown;
	}

	/** The state after this poll's read: the read going on, or the floor moved by its end. */
	finish(): TimesState {
		const order = this.orderBroken ? 'whole' : this.order;
		const basisMs = this.basisMs ?? readBasis(this.serviceDateMs(), this.latestMs);
		const pending = [...this.pending].slice(-MAX_PENDING);
		const state: TimesState = { ...this.state };
		delete state.pending;
		const base: TimesState = {
			...state,
			order,
			latestMs: this.latestMs,
			due: this.due,
			...(pending.length ? { pending } : {}),
		};
		if (this.cut && this.position) {
			// What this read passed stays passed by its anchors; going on, it is whole (rule
			// `whole-read-every`) and ends with the floor at its basis less OVERLAP: only keys above
			// that are kept.
			const keepAbove = basisMs === null ? null : basisMs - OVERLAP_MS;
			this.fresh.prune(keepAbove, Infinity);
			// Rule `known-bounded`: the known keys give way first (the floor rises at once); then this
			// read's oldest, which it has passed (the floor rises to them as it ends).
			const knownGaveWay = this.known.prune(null, Math.max(0, MAX_KNOWN - this.fresh.size));
			const freshGaveWay = this.fresh.prune(null, MAX_KNOWN);
			const floorAtLeastMs = Math.max(
				knownGaveWay ?? -Infinity,
				this.read.floorAtLeastMs ?? -Infinity,
			);
			const floorAtEndMs = Math.max(freshGaveWay ?? -Infinity, this.read.floorAtEndMs ?? -Infinity);
			const read = {
				...this.position,
				anchors: this.anchors,
				basisMs,
				firstPage: this.read.firstPage,
				fresh: this.fresh.encode(),
				...(floorAtLeastMs > (this.state.floorMs ?? -Infinity) ? { floorAtLeastMs } : {}),
				...(floorAtEndMs > -Infinity ? { floorAtEndMs } : {}),
				...(this.state.recording && this.recordUpToMs < Infinity
					? { recordUpToMs: this.recordUpToMs }
					: {}),
			};
			return { ...base, known: this.known.encode(), read };
		}
		this.known.merge(this.fresh);
		// Only a whole read (or the starting point, which defines what is old) moves the floor.
		const whole = !this.ended && this.read.firstPage === 1;
		const moved = whole || this.state.recording ? floorAfter(this.state.floorMs, basisMs) : null;
		const floorAtLeast = Math.max(
			moved ?? this.state.floorMs ?? -Infinity,
			this.read.floorAtLeastMs ?? -Infinity,
			this.read.floorAtEndMs ?? -Infinity,
		);
		const floorMs = this.known.prune(floorAtLeast === -Infinity ? null : floorAtLeast);
		delete base.read;
		delete base.recording;
		return {
			...base,
			floorMs,
			stopsLeft: whole ? WHOLE_EVERY - 1 : Math.max(0, (this.state.stopsLeft ?? 0) - 1),
			known: this.known.encode(),
			...(order === 'oldestFirst' ? { startPage: this.crossingPage(floorMs) } : {}),
		};
	}

	/** The last page read whose first finish is below the floor (where the next read starts). */
	private crossingPage(floorMs: number | null): number {
		let page = this.read.firstPage;
		for (const [at, firstMs] of this.pageFinishes)
			if (floorMs !== null && firstMs !== undefined && firstMs <= floorMs - OVERLAP_MS) page = at;
		return page;
	}
}

const idOf = (entry: IDataObject): string => String(entry.id);
