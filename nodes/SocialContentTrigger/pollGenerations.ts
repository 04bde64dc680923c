import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { generationItem, getGeneration } from '../shared/generations';
import {
	finishTimeMs,
	listDirection,
	normaliseGeneration,
	pendingGenerationId,
} from '../shared/shapes';
import { walkPages, walkPagesBackward, type PagePosition } from '../shared/paging';
import type { RunContext } from '../shared/transport';
import { openFamily, timeLeft, type FamilyPoll } from './pollStore';
import { emit, messageOf, MIN_TIME_PER_GENERATION_MS, withDetails } from './emitDue';
import { isTimesState, type TimesState } from './finishTimes';
import { pollByFinishTimes, startingState } from './pollTimes';
import { KeyMemory } from './idMemory';
import {
	baseline,
	believableFinishMs,
	EMPTY_START_MAX_NEW,
	isCurrentState,
	isPending,
	entryKey,
	knownTo,
	newlyDue,
	GAP,
	KNOWN_RUN,
	MAX_PENDING,
	MAX_SCAN_READ,
	MAX_SEEN,
	plan,
	settle,
	type GenerationState,
	type ListReading,
	type ScanState,
} from './generationState';

/** One poll's requests: they share the connection, the pace and the time budget. */
type PollRun = RunContext<IPollFunctions>;

export interface TriggerOptions {
	/** Final statuses that fire: `done`, `failed`. */
	statuses: string[];
	/** Format ids that fire; empty means all. */
	formats: string[];
	download: boolean;
	simplify: boolean;
}

/** Pending generations the list did not show that are asked for by id, per poll. */
const DETAIL_READS_PER_POLL = 10;
/** Share of a poll's time its read may take: the rest emits what is due. */
const READ_SHARE = 0.5;
/** An unpaged list is looked at in slices of this many: a quiet poll stops at the first it knows. */
const SLICE = 100;
/** Hashes of the memory kept in the activation record (see pollStore.ts). */
export const RECORD_SEEN = 1000;

/** One poll: read on, decide what is new (generationState.ts), emit what is due, oldest first. */
export async function pollGenerations(
	run: PollRun,
	options: TriggerOptions,
	activation: boolean,
): Promise<FamilyPoll> {
	const family = await openFamily<GenerationState | TimesState>(run, 'generations', activation, {
		isCurrent: (state): state is GenerationState | TimesState =>
			isTimesState(state) || isCurrentState(state),
		forRecord: (decided) =>
			isTimesState(decided)
				? decided
				: { ...decided, seen: new KeyMemory(decided.seen).encode(RECORD_SEEN) },
	});
	const commitTimes = family.commitOf as (next: TimesState | undefined) => FamilyPoll['commit'];
	const commitOf = family.commitOf as (next: GenerationState | undefined) => FamilyPoll['commit'];
	if (family.state && !isTimesState(family.state))
		return await pollByPositions(run, options, family.state, commitOf);
	// Read on finish times (pollTimes.ts) until the list shows finished ones without any.
	const timed = family.state ?? startingState();
	const polled = await pollByFinishTimes(run, options, timed, commitTimes);
	if (polled.positions === undefined) return polled;
	// No starting point taken yet: it is taken by positions, on what this read showed.
	if (!family.state || family.state.recording)
		return { items: [], commit: commitOf(baseline(polled.positions, run.clock.now())) };
	return await pollByPositions(run, options, afterEmptyStart(timed, run.clock.now()), commitOf);
}

/** A list that started empty and now shows finished ones with no times: read by positions. */
function afterEmptyStart(timed: TimesState, nowMs: number): GenerationState {
	const { emptyAtMs, ...started } = emptyStart(timed.seq, nowMs);
	// A list that showed pending ones was not empty: what finished since is new.
	return timed.pending?.length ? { ...started, pending: timed.pending } : { ...started, emptyAtMs };
}

/** One poll of a list with no finish times: read on, decide by positions (generationState.ts). */
async function pollByPositions(
	run: PollRun,
	options: TriggerOptions,
	from: GenerationState | undefined,
	commitOf: (next: GenerationState | undefined) => FamilyPoll['commit'],
): Promise<FamilyPoll> {
	let state = from;
	if (!state || state.startAgain) {
		// The starting point: what is finished is old. Only a read that shows a list is one.
		const deepEnough = () => {
			let read = 0;
			return (slice: IDataObject[]) => (read += slice.length) >= MAX_SEEN;
		};
		const whole = { untilMs: run.deadlineMs, startingPoint: true };
		let reading = await readGenerations(run, {
			...whole,
			stopAt: deepEnough(),
			turnIfOldestFirst: true,
		});
		// A list that grows at its end: the starting point is its newest entries, read from the end.
		const growsAtEnd = reading.direction === 'oldestFirst';
		if (growsAtEnd)
			reading = await readGenerations(run, { ...whole, stopAt: deepEnough(), backward: true });
		if (!reading.entries.length && !reading.emptyList) {
			run.n8n.logger.warn(
				'Social Content Trigger: the answer to the list of generations held no list; the starting point is taken at the next poll that shows one',
			);
			return { items: [], commit: commitOf(undefined) };
		}
		const start = {
			...baseline(reading, run.clock.now()),
			...(growsAtEnd ? { direction: 'oldestFirst' as const } : {}),
		};
		// Taken again over a replaced list: what was due or seen running still fires.
		const again = state ? startedAgain(state, start, reading.entries, run.clock.now()) : start;
		return { items: [], commit: commitOf(again) };
	}

	const seen = new KeyMemory(state.seen);
	const isKnown = knownTo(seen, new Set(state.due.map(([id]) => id)));
	// Known from a list's position (not only read by id): what the stop rule may rest on.
	const unplaced = new Set(state.unplaced ?? []);
	const isPlaced = (entry: IDataObject) => isKnown(entry) && !unplaced.has(entryKey(entry));
	// Kept as "known" by a read going on: placed, its finish time neither ahead nor past the mark.
	const staysKnown = (entry: IDataObject) => {
		const finishedMs = believableFinishMs(entry, run.clock.now());
		if (finishTimeMs(entry) !== undefined && finishedMs === undefined) return false;
		const mark = state!.finishedUpToMs;
		return isPlaced(entry) && (finishedMs === undefined || mark === null || finishedMs <= mark);
	};
	const backward = state.direction === 'oldestFirst';
	const reading = await readGenerations(run, {
		from: (state.scan?.backward === true) === backward ? state.scan : undefined,
		backward,
		readBefore:
			state.scan &&
			new Set([
				...scanEntries(state.scan).map((entry) => String(entry.id)),
				...(state.scan.last ?? []),
			]),
		stopAt: stopRule(isKnown, isPlaced),
		untilMs: run.clock.now() + READ_SHARE * Math.max(0, timeLeft(run)),
	});
	if (reading.restarted) state = { ...state, scan: undefined };
	const turnedTo = reading.direction;
	const turned = turnedTo !== undefined && turnedTo !== (state.direction ?? 'newestFirst');
	if (turned && reading.reachedEnd && !state.scan) {
		// The whole list read: turned round, it is newest first (part of it would mix two orders).
		reading.entries.reverse();
		state = { ...state, direction: turnedTo === 'oldestFirst' ? turnedTo : undefined };
	} else if (turned) {
		// Read from its other end from the next poll; the memory stays (a new start loses work).
		run.n8n.logger.warn(
			`Social Content Trigger: the list of generations runs ${turnedTo === 'oldestFirst' ? 'oldest' : 'newest'} first; it is read from its ${turnedTo === 'oldestFirst' ? 'end' : 'top'} from the next poll on`,
		);
		const direction = turnedTo === 'oldestFirst' ? turnedTo : undefined;
		return { items: [], commit: commitOf({ ...state, direction, scan: undefined }) };
	}
	const entries = [...scanEntries(state.scan), ...reading.entries];
	const pendingRead = entries.filter(isPending).map((entry) => String(entry.id));

	// An empty start that shows a history (EMPTY_START_MAX_NEW) decides now, without a scan.
	const history =
		state.emptyAtMs !== undefined &&
		!seen.size &&
		!state.due.length &&
		entries.filter(
			(entry) => !isPending(entry) && believableFinishMs(entry, run.clock.now()) === undefined,
		).length > EMPTY_START_MAX_NEW;
	if (reading.next && !history) {
		// Out of time before a page that decides: the read goes on at the next poll, from there.
		const scan: ScanState = {
			...reading.next,
			...(backward ? { backward: true as const } : {}),
			read: compactScan(entries, staysKnown),
			last: reading.entries.length
				? reading.entries.slice(-SCAN_ANCHORS).map((entry) => String(entry.id))
				: state.scan?.last,
		};
		run.n8n.logger.info(
			`Social Content Trigger: the list of generations is deeper than one poll reads; ${scan.read.filter((text) => text !== KNOWN_RUN && text !== GAP).length} unknown so far, reading on from page ${scan.page} at the next poll`,
		);
		const emitted = await emit(run, options, state.due);
		const pending = [...new Set([...state.pending, ...pendingRead])].slice(0, MAX_PENDING);
		const decided = { ...state, listed: [], pending };
		const next = settle(state, decided, { ...emitted, resolvedPending: [], scan }, seen);
		return { items: emitted.items, commit: commitOf(next) };
	}

	const decided = plan(state, { ...reading, entries }, run.clock.now(), seen);
	if (decided.replaced) {
		run.n8n.logger.warn(
			'Social Content Trigger: the list of generations shows none of those the trigger remembers (deleted, or another history): what it shows now is taken as the starting point and does not fire',
		);
		// A read over several polls kept only part of what it read: a new start at the next poll.
		const startAgain = { ...state, seq: state.seq + 1, scan: undefined, startAgain: true as const };
		if (state.scan) return { items: [], commit: commitOf(startAgain) };
	}
	if (state.emptyAtMs !== undefined && decided.listed.length > 0 && !decided.finished.length)
		run.n8n.logger.info(
			'Social Content Trigger: the list was empty when the trigger started; the generations it shows now are taken as what was there before, and do not fire',
		);
	const { finished, resolvedPending, checked } = await askForUnseen(run, decided.unseenPending);
	const decidedNow = [...decided.finished, ...finished];
	const dueIds = new Set(state.due.map(([id]) => id));
	const fresh = decidedNow.filter((entry) => !dueIds.has(String(entry.id)));
	const readById = new Set(finished.map((entry) => String(entry.id)));
	const due = [
		...state.due,
		...fresh.map((entry) => newlyDue(entry, run.clock.now(), readById.has(String(entry.id)))),
	];
	const listedNow = new Map(
		[...entries, ...finished].map((entry) => [String(entry.id), entry] as const),
	);
	// Pending ids asked for by id this time go to the back of the line (the sort is stable).
	const asked = (id: string) => Number(checked.includes(id));
	const pending = [...decided.pending].sort((a, b) => asked(a) - asked(b));
	const emitted = await emit(run, options, due, listedNow);
	const fired = new Set(emitted.fired);
	const open = decidedNow.map(entryKey).filter((key) => !fired.has(key));
	const outcome = { ...emitted, open, resolvedPending, readById };
	const next = settle(state, { ...decided, pending }, outcome, seen);
	return { items: emitted.items, commit: commitOf(next) };
}

/**
 * A stop: a slice with a placed known one, and a slice's worth of known ones in a row, or all known
 * after half that (one known changed above new ones is no stop).
 */
function stopRule(
	isKnown: (entry: IDataObject) => boolean,
	isPlaced: (entry: IDataObject) => boolean,
): (slice: IDataObject[]) => boolean {
	let inARow = 0;
	let largest = 0;
	return (slice) => {
		largest = Math.max(largest, slice.length);
		let longest = 0;
		for (const entry of slice)
			if (!isPending(entry))
				longest = Math.max(longest, (inARow = isKnown(entry) ? inARow + 1 : 0));
		return (
			slice.some(isPlaced) &&
			(longest >= largest ||
				(2 * inARow >= largest && slice.every((entry) => isPending(entry) || isKnown(entry))))
		);
	};
}

/** A new starting point that keeps what the state it replaces still owed. */
function startedAgain(
	state: GenerationState,
	start: GenerationState,
	entries: IDataObject[],
	nowMs: number,
) {
	const dueIds = new Set(state.due.map(([id]) => id));
	const finishedNow = entries.filter(
		(entry) =>
			!isPending(entry) &&
			state.pending.includes(String(entry.id)) &&
			!dueIds.has(String(entry.id)),
	);
	const done = new Set(finishedNow.map((entry) => String(entry.id)));
	const pending = [...new Set([...start.pending, ...state.pending.filter((id) => !done.has(id))])];
	const due = [...state.due, ...finishedNow.map((entry) => newlyDue(entry, nowMs))];
	return { ...start, seq: state.seq + 1, due, pending: pending.slice(0, MAX_PENDING) };
}

/** The entries a read cut short had read, as the decision sees them (see ScanState). */
function scanEntries(scan: ScanState | undefined): IDataObject[] {
	return (scan?.read ?? []).map((text, index) => {
		if (text === KNOWN_RUN) return { id: `${KNOWN_RUN}${index}`, status: 'done', knownRun: true };
		if (text === GAP) return { id: `${GAP}${index}`, status: GAP, gap: true };
		const [status, finishedMs] = text.split('|', 2);
		const id = text.slice(status.length + finishedMs.length + 2);
		return { id, status, ...(finishedMs ? { finishedAt: Number(finishedMs) } : {}) };
	});
}

/**
 * What a read cut short keeps: the deepest MAX_SCAN_READ unknown, runs of known ones, GAP where it
 * left some out, and the SCAN_PREFIX just below the last known ones (old if nothing known follows).
 */
function compactScan(
	entries: IDataObject[],
	staysKnown: (entry: IDataObject) => boolean,
): string[] {
	const read: string[] = [];
	const mark = (into: string[], marker: string) =>
		into[into.length - 1] !== marker && into.push(marker);
	for (const entry of entries) {
		if (isPending(entry)) continue;
		if (entry.gap === true) mark(read, GAP);
		else if (entry.knownRun === true || staysKnown(entry)) mark(read, KNOWN_RUN);
		else read.push(`${String(entry.status)}|${finishTimeMs(entry) ?? ''}|${String(entry.id)}`);
	}
	const unknown = (text: string) => text !== KNOWN_RUN && text !== GAP;
	const afterKnown = read.lastIndexOf(KNOWN_RUN) + 1;
	const gapAfter = read.indexOf(GAP, afterKnown);
	const prefixEnd = Math.min(afterKnown + SCAN_PREFIX, gapAfter < 0 ? read.length : gapAfter);
	const inPrefix = (index: number) => index >= afterKnown && index < prefixEnd;
	let over = read.filter((text, index) => unknown(text) && !inPrefix(index)).length - MAX_SCAN_READ;
	// The newest give way: they sit above the rest, so a later read finds them again.
	const kept: string[] = [];
	read.forEach((text, index) => {
		const left = unknown(text) && !inPrefix(index) && over-- > 0;
		if (!left) kept.push(text);
		else mark(kept, GAP);
	});
	return kept;
}

interface GenerationReading extends Required<Omit<ListReading, 'length'>> {
	length?: number;
	/** Where to go on, when the read ran out of time before a page that decides. */
	next?: PagePosition;
	/** Which way the list runs, when the times of what was read say. */
	direction?: 'oldestFirst' | 'newestFirst';
	/** A read going on lost its place and read from the top: what it had read before is void. */
	restarted?: true;
}

/** The list newest first (`backward`: from its end), from the top or `from`, a slice at a time. */
async function readGenerations(
	run: PollRun,
	how: {
		from?: PagePosition;
		backward?: boolean;
		turnIfOldestFirst?: boolean;
		/** After a stop, the pages to the end or `untilMs` are looked at for running ones only. */
		startingPoint?: boolean;
		stopAt: (slice: IDataObject[]) => boolean;
		untilMs?: number;
		/** Ids the read that stopped at `from` had read (see stepBack). */
		readBefore?: Set<string>;
	},
): Promise<GenerationReading> {
	const entries: IDataObject[] = [];
	const pendingElsewhere: string[] = [];
	let emptyList = false;
	let stopped = false;
	let outOfTime = false;
	let length = 0;
	let direction: GenerationReading['direction'];
	let pages = 0;
	const stepped = how.from && how.readBefore && how.from.cursor === undefined;
	let glitch = false;
	// A list whose times do not tell its order yet is read on from the top: it may grow at its end.
	const tellsOrder = () =>
		how.backward === true ||
		listDirection(entries) !== undefined ||
		!entries.some((entry) => ['finishedAt', 'updatedAt', 'createdAt'].some((key) => key in entry));
	const visit = (list: unknown[]) => {
		if (how.from && !stepped && !pages && list.length && !list.some(hasId)) return !(glitch = true);
		if (!entries.length && !list.length) emptyList = true;
		length += list.filter(hasId).length;
		// A starting point stops at pages showing oldest first: its time goes to the read from the end.
		const first = () => list.slice(0, MAX_SEEN).map(normaliseGeneration);
		if (how.turnIfOldestFirst && !direction && entries.length < MAX_SEEN) {
			direction = listDirection([...entries, ...first()]);
			if (direction === 'oldestFirst') return false;
		}
		// A slice is normalised only when its turn comes: a quiet poll over a long list reads one.
		const slices = Math.ceil(list.length / SLICE);
		let index = 0;
		const pastStop = stopped;
		for (; !pastStop && index < slices && (!stopped || how.startingPoint); index++) {
			const slice = list
				.slice(index * SLICE, (index + 1) * SLICE)
				.map(normaliseGeneration)
				.filter(hasId);
			entries.push(...slice);
			// Read from its end, a list's last page may hold one changed generation: not a stop alone.
			stopped ||= !(how.backward && pages === 0 && !how.from) && tellsOrder() && how.stopAt(slice);
		}
		// Past a stop, only running ones are looked at.
		for (const entry of list.slice(index * SLICE)) {
			const id = pendingGenerationId(entry);
			if (id !== undefined) pendingElsewhere.push(id);
		}
		pages++;
		const goesOn = !stopped || how.startingPoint === true;
		outOfTime = goesOn && how.untilMs !== undefined && run.clock.now() >= how.untilMs;
		return goesOn && !outOfTime;
	};
	const path = '/studio/generations';
	const options = { listKeys: ['generations'], from: how.from };
	// Only what the step back found unread is visited (an empty visit would read as an empty list).
	const { unread, sawNone, lost } = stepped
		? await stepBack(run, path, how.from!.page, how.readBefore!, how.backward === true)
		: { unread: [], sawNone: false, lost: false };
	// Its place gone: it had decided nothing, so it reads again from the top.
	if (lost) {
		const fromTop = { ...how, from: undefined, readBefore: undefined };
		return { ...(await readGenerations(run, fromTop)), restarted: true };
	}
	// A page above showing none while its own shows some, or a first answer with none: a glitch.
	const held = () => {
		run.n8n.logger.warn(
			'Social Content Trigger: an answer in the middle of a read going on held no generations; the read goes on from the same page at the next poll',
		);
		return {
			entries: [],
			pendingElsewhere: [],
			emptyList: false,
			reachedEnd: false,
			next: how.from,
		};
	};
	if (sawNone && (await readPage(run, path, how.from!)).some(hasId)) return held();
	const { next } =
		unread.length && !visit(unread)
			? { next: how.from }
			: how.backward
				? await walkPagesBackward(run, path, options, visit)
				: await walkPages(run, path, { ...options, maxPages: Infinity }, visit);
	if (glitch) return held();
	// In the list's own order: a backward read sees it from its end.
	direction ??= listDirection(how.backward ? [...entries].reverse() : entries);
	return {
		entries,
		pendingElsewhere,
		emptyList,
		reachedEnd: !stopped && next === undefined,
		// An answer with no list in it says nothing of the list's length.
		...(next === undefined && !how.from && (length > 0 || emptyList) ? { length } : {}),
		...(outOfTime && next ? { next } : {}),
		direction,
	};
}

/** Pages a read going on steps back at most, and ids of its last entries it keeps (stepBack). */
const MAX_STEP_BACK = 10;
const SCAN_ANCHORS = 3;
/** Unknown ones a read cut short keeps right below the last known ones (see compactScan). */
const SCAN_PREFIX = 50;

/**
 * Where a read going on by page stopped, once deletions above moved the rest up: back from `page`
 * to one showing an id it read, what follows that id is unread. `backward` (from the list's end):
 * once the rest moved down, on from `page` to such a page, what precedes the id is unread.
 */
async function stepBack(
	run: PollRun,
	path: string,
	page: number,
	readBefore: Set<string>,
	backward: boolean,
): Promise<{ unread: unknown[]; sawNone: boolean; lost: boolean }> {
	const unread: unknown[][] = [];
	let sawNone = false;
	const isRead = (entry: unknown) => readBefore.has(String(normaliseGeneration(entry).id));
	for (let at = page + (backward ? 1 : -1); at >= 1; at += backward ? 1 : -1) {
		if (unread.length === MAX_STEP_BACK) {
			run.n8n.logger.warn(
				`Social Content Trigger: more than ${MAX_STEP_BACK} pages of generations moved under a read going on (deleted above it, or placed at the list's start); it reads the list again`,
			);
			return { unread: [], sawNone, lost: true };
		}
		const list = await readPage(run, path, { page: at });
		if (backward) {
			// Past the list's end (it shrank): nothing moved down.
			const first = list.findIndex(isRead);
			unread.unshift(list.slice(0, first < 0 ? list.length : first).reverse());
			if (first >= 0 || !list.some(hasId)) break;
			continue;
		}
		sawNone ||= !list.some(hasId);
		let last = list.length - 1;
		while (last >= 0 && !isRead(list[last])) last--;
		unread.unshift(list.slice(last + 1));
		if (last >= 0) break;
	}
	return { unread: unread.flat(), sawNone, lost: false };
}

/** One page of the list, as it answers. */
async function readPage(run: PollRun, path: string, at: PagePosition): Promise<unknown[]> {
	let list: unknown[] = [];
	const options = { listKeys: ['generations'], from: at, maxPages: 1 };
	await walkPages(run, path, options, (answer) => !(list = answer));
	return list;
}

/** Pending ones the list did not show, asked for by id, a few per poll; a 404 means gone. */
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

/** Fetch Test Event: the latest finished generation that matches, read as a poll would; no state. */
export async function latestGeneration(
	run: PollRun,
	options: TriggerOptions,
): Promise<INodeExecutionData | undefined> {
	const { entries } = await readGenerations(run, { stopAt: () => false, untilMs: run.clock.now() });
	const matching = entries.filter((entry) => options.statuses.includes(String(entry.status)));
	const latestFirst = matching.every((entry) => finishTimeMs(entry) !== undefined)
		? [...matching].sort((a, b) => (finishTimeMs(b) ?? 0) - (finishTimeMs(a) ?? 0))
		: matching;
	for (const generation of latestFirst) {
		const detailed = await withDetails(run, generation);
		if (!options.formats.length || options.formats.includes(String(detailed.format)))
			return await generationItem(run.n8n, run, detailed, options);
	}
	return undefined;
}

/** A positions state that starts from an empty list (see `emptyAtMs`). */
const emptyStart = (seq: number, nowMs: number): GenerationState => ({
	v: 1,
	seq: seq + 1,
	seen: '',
	pending: [],
	due: [],
	finishedUpToMs: null,
	emptyAtMs: nowMs,
});

/** Whether a list entry (as read, or normalised) has an id. */
function hasId(entry: unknown): boolean {
	const record = (entry && typeof entry === 'object' ? entry : {}) as IDataObject;
	const id = (record.generation as IDataObject | undefined)?.id ?? record.id;
	return id !== undefined && id !== null && id !== '';
}
