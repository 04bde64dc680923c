/**
 * Judges a run of the generation trigger from the world alone (test/helpers/serviceWorld.cts):
 * the generations' histories, the list answers the service served, n8n's polls and the items
 * n8n received (id and status). It never reads the trigger's state, logs or outputs beyond the
 * emitted items. The promise it holds the trigger to is docs' contract for lists with finish
 * times (issue 67): after activation every finish fires once; nothing finished before
 * activation fires; nothing fires that did not finish. An owed finish that did not fire is a
 * violation unless exactly the world shows one of the contract's limits L1–L5 applies.
 */
import type {
	FinalStatus,
	Generation,
	Outcome,
	ServedAnswer,
	ServiceWorld,
} from './serviceWorld.cjs';

export const OVERLAP_MS = 10 * 60_000;

export type Limit = 'L1' | 'L2' | 'L3' | 'L4' | 'L5' | 'L9';
export const LIMITS: Limit[] = ['L1', 'L2', 'L3', 'L4', 'L5', 'L9'];

export type ViolationKind = 'firedTwice' | 'firedBeforeActivation' | 'firedNeverFinished' | 'lost';

export interface Violation {
	kind: ViolationKind;
	id: string;
	status: string;
	detail: string;
}

export interface Verdict {
	violations: Violation[];
	/** Owed finishes that did not fire, each excused by one limit (the first that applies). */
	exempt: Record<Limit, string[]>;
	/** Finishes owed (after activation, before the last poll started, of a chosen status). */
	owed: number;
	/** Of those, fired. */
	fired: number;
	/** Items n8n received. */
	items: number;
	counts: Record<ViolationKind, number>;
	clean: boolean;
	/** One line: the numbers, and the first violations. */
	summary: string;
}

export interface OracleOptions {
	/** The statuses the trigger was asked to fire for. */
	events?: FinalStatus[];
	overlapMs?: number;
}

interface OutcomeRef {
	generation: Generation;
	outcome: Outcome;
	index: number;
}

/** Served list answers, per account, in order, with the reads they belong to. */
class ServedIndex {
	readonly answers: ServedAnswer[];
	/** For each answer, the read it belongs to (a read starts at a first-page request). */
	readonly readOf: number[] = [];
	/** For each answer, the latest finish time served up to and including it. */
	readonly markAt: number[] = [];

	constructor(served: ServedAnswer[], account: string) {
		this.answers = served.filter((answer) => answer.account === account);
		let read = -1;
		let mark = -Infinity;
		this.answers.forEach((answer, i) => {
			const previous = this.answers[i - 1];
			const retry = previous && previous.httpStatus !== 200 && previous.uri === answer.uri;
			if (answer.firstPage && !retry) read++;
			this.readOf.push(Math.max(read, 0));
			if (answer.httpStatus === 200)
				for (const entry of answer.entries)
					if (entry.finishedMs !== undefined && entry.finishedMs > mark) mark = entry.finishedMs;
			this.markAt.push(mark);
		});
	}

	/** The latest finish time served before `seq`. */
	markBefore(seq: number): number {
		let mark = -Infinity;
		for (let i = 0; i < this.answers.length && this.answers[i].seq < seq; i++)
			mark = this.markAt[i];
		return mark;
	}

	/** The seq of the last answer of the read that the first answer at or after `seq` begins. */
	endOfReadFrom(seq: number): number | undefined {
		const first = this.answers.findIndex((answer) => answer.seq >= seq);
		if (first < 0) return undefined;
		let last = first;
		while (last + 1 < this.answers.length && this.readOf[last + 1] === this.readOf[first]) last++;
		return this.answers[last].seq;
	}
}

function activationStart(world: ServiceWorld, account: string, served: ServedIndex): number {
	if (account === world.homeAccount) {
		// Never activated (activation refused): nothing is owed.
		const activation = world.polls.find((poll) => poll.kind === 'activation' && !poll.error);
		return activation?.startSeq ?? Infinity;
	}
	// Another account: from the first answer the service gave it.
	return served.answers[0]?.seq ?? Infinity;
}

export function judge(world: ServiceWorld, options: OracleOptions = {}): Verdict {
	const events = options.events ?? ['done'];
	const overlap = options.overlapMs ?? OVERLAP_MS;
	const accounts = new Set([...world.generations.values()].map((g) => g.account));
	const indexes = new Map<string, ServedIndex>();
	const starts = new Map<string, number>();
	const firstReadEnds = new Map<string, number>();
	for (const account of accounts) {
		const index = new ServedIndex(world.served, account);
		indexes.set(account, index);
		const start = activationStart(world, account, index);
		starts.set(account, start);
		firstReadEnds.set(account, index.endOfReadFrom(start) ?? start);
	}
	const violations: Violation[] = [];
	const matched = new Set<Outcome>();
	const hiddenAtStart: string[] = [];

	for (const item of world.items) {
		const generation = world.generations.get(item.id);
		const candidates = (generation?.outcomes ?? []).filter(
			(outcome) => outcome.status === item.status && outcome.seq < item.seq,
		);
		const violation = (kind: ViolationKind, detail: string) =>
			violations.push({ kind, id: item.id, status: item.status, detail });
		if (!generation || !candidates.length) {
			violation(
				'firedNeverFinished',
				`poll ${item.pollIndex}: ${generation ? `is ${generation.status}, had no ${item.status} finish` : 'no such generation'}`,
			);
			continue;
		}
		const start = starts.get(generation.account)!;
		const after = candidates.filter((outcome) => outcome.seq >= start);
		// The finish the item shows (its finish time, to the second, when it carries one), else the
		// earliest not matched yet.
		const unmatched = after.filter((outcome) => !matched.has(outcome));
		const shown = unmatched.filter(
			(outcome) =>
				item.finishedMs !== undefined && Math.abs(outcome.finishedMs - item.finishedMs) < 1000,
		);
		const open = shown[0] ?? unmatched[0];
		if (open) matched.add(open);
		else if (!after.length) {
			const hidden = unseenAtStart(candidates[candidates.length - 1], generation.id, {
				index: indexes.get(generation.account)!,
				start,
				firstReadEnd: firstReadEnds.get(generation.account)!,
				overlap,
			});
			if (hidden) hiddenAtStart.push(item.id);
			else violation('firedBeforeActivation', `poll ${item.pollIndex}: finished before activation`);
		} else
			violation(
				'firedTwice',
				`poll ${item.pollIndex}: its ${after.length} finish(es) fired already`,
			);
	}

	const lastPoll = world.polls[world.polls.length - 1];
	const horizon = lastPoll?.startSeq ?? 0;
	const owed: OutcomeRef[] = [];
	for (const generation of world.generations.values()) {
		const start = starts.get(generation.account)!;
		generation.outcomes.forEach((outcome, index) => {
			if (events.includes(outcome.status) && outcome.seq >= start && outcome.seq < horizon)
				owed.push({ generation, outcome, index });
		});
	}
	const unfired = owed.filter((ref) => !matched.has(ref.outcome));
	const servings = servingsOf(new Set(unfired.map((ref) => ref.generation.id)), world.served);
	const exempt: Record<Limit, string[]> = { L1: [], L2: [], L3: [], L4: [], L5: [], L9: [] };
	const blockedSets = new Map<string, Set<string>>();
	const blockedByAccount = (account: string) => {
		if (!blockedSets.has(account)) blockedSets.set(account, blockedAtEnd(world, account));
		return blockedSets.get(account)!;
	};
	exempt.L9.push(...hiddenAtStart);
	for (const ref of unfired) {
		const account = ref.generation.account;
		const limit = limitFor(ref, {
			index: indexes.get(account)!,
			start: starts.get(account)!,
			firstReadEnd: firstReadEnds.get(account)!,
			servings: servings.get(ref.generation.id) ?? [],
			world,
			overlap,
			blocked: blockedByAccount(account),
		});
		if (limit) exempt[limit].push(ref.generation.id);
		else
			violations.push({
				kind: 'lost',
				id: ref.generation.id,
				status: ref.outcome.status,
				detail: `finished (seq ${ref.outcome.seq}, finish ${new Date(ref.outcome.finishedMs).toISOString()}), shown, never fired`,
			});
	}
	const counts: Record<ViolationKind, number> = {
		firedTwice: 0,
		firedBeforeActivation: 0,
		firedNeverFinished: 0,
		lost: 0,
	};
	for (const violation of violations) counts[violation.kind]++;
	const fired = owed.length - unfired.length;
	const exemptText = LIMITS.filter((limit) => exempt[limit].length)
		.map((limit) => `${limit} ${exempt[limit].length}`)
		.join(', ');
	const summary =
		`owed ${owed.length}, fired ${fired}, items ${world.items.length}, lost ${counts.lost}, ` +
		`fired twice ${counts.firedTwice}, fired before activation ${counts.firedBeforeActivation}, ` +
		`fired never finished ${counts.firedNeverFinished}, exempt ${exemptText || 0}, ` +
		`failed polls ${world.polls.filter((poll) => poll.error).length} of ${world.polls.length}` +
		(violations.length
			? `; first: ${violations
					.slice(0, 3)
					.map((v) => `${v.kind} ${v.id} (${v.detail})`)
					.join('; ')}`
			: '');
	return {
		violations,
		exempt,
		owed: owed.length,
		fired,
		items: world.items.length,
		counts,
		clean: violations.length === 0,
		summary,
	};
}

interface Serving {
	seq: number;
	status: string;
	finishedMs?: number;
	answer: number;
	account: string;
}

/** Every time a list answer (200) showed one of these ids. */
function servingsOf(ids: Set<string>, served: ServedAnswer[]): Map<string, Serving[]> {
	const found = new Map<string, Serving[]>();
	if (!ids.size) return found;
	served.forEach((answer, answerIndex) => {
		if (answer.httpStatus !== 200) return;
		for (const entry of answer.entries) {
			if (!ids.has(entry.id)) continue;
			const list = found.get(entry.id) ?? [];
			list.push({
				seq: answer.seq,
				status: entry.status,
				finishedMs: entry.finishedMs,
				answer: answerIndex,
				account: answer.account,
			});
			found.set(entry.id, list);
		}
	});
	return found;
}

interface LimitContext {
	index: ServedIndex;
	start: number;
	firstReadEnd: number;
	servings: Serving[];
	world: ServiceWorld;
	overlap: number;
	blocked: Set<string>;
}

/**
 * L9: a finish within the overlap before activation (on the service's clock as the starting
 * point's read began) that no answer of that read showed (a list cut to its newest N, say) may
 * fire when a later answer shows it.
 */
function unseenAtStart(
	outcome: Outcome,
	id: string,
	context: { index: ServedIndex; start: number; firstReadEnd: number; overlap: number },
): boolean {
	const atStart = context.index.answers.filter(
		(answer) => answer.seq >= context.start && answer.seq <= context.firstReadEnd,
	);
	const startMs = atStart[0]?.serviceMs;
	if (startMs === undefined || outcome.finishedMs <= startMs - context.overlap) return false;
	return !atStart.some((answer) => answer.entries.some((entry) => entry.id === id));
}

/** The limit that excuses this unfired finish, judged from the world and served answers only. */
function limitFor(ref: OutcomeRef, context: LimitContext): Limit | undefined {
	const { outcome, generation } = ref;
	const shownAfter = context.servings.filter(
		(serving) =>
			serving.seq > outcome.seq &&
			serving.account === generation.account &&
			serving.status === outcome.status &&
			// A list without finish times shows a finish by its status alone.
			(serving.finishedMs === undefined || serving.finishedMs === outcome.finishedMs),
	);
	// L3: it finished while the activation poll's first read was going on.
	if (outcome.seq >= context.start && outcome.seq <= context.firstReadEnd) return 'L3';
	// L1: no list answer showed this finish after it happened, and the list stopped holding it
	// (deleted, cut from a list of the newest N, or run again) before any did, or holds it only
	// beyond a page that still always fails.
	if (!shownAfter.length && leftTheList(ref, context.blocked)) return 'L1';
	// L2: its finish time is more than the overlap before a finish time already served.
	if (outcome.finishedMs < context.index.markBefore(outcome.seq) - context.overlap) return 'L2';
	// L4: deletions between two pages of one read after it finished, and never shown while the
	// mark was still within the overlap of its finish.
	if (deletedMidRead(outcome.seq, context) && !shownWithinOverlap(shownAfter, outcome, context))
		return 'L4';
	// L5: run again to the same status and the same finish time as its finish before.
	const before = generation.outcomes[ref.index - 1];
	if (before && before.status === outcome.status && before.finishedMs === outcome.finishedMs)
		return 'L5';
	return undefined;
}

/**
 * Ids the service cannot show at the end of the run: on or below a page that still always fails
 * (a read cannot get past it).
 */
function blockedAtEnd(world: ServiceWorld, account: string): Set<string> {
	if (!world.failingPages.size) return new Set();
	const size = world.shape.paging === 'unpaged' ? Infinity : (world.shape.pageSize ?? 20);
	const first = Math.min(...world.failingPages);
	const from = size === Infinity ? 0 : (first - 1) * size;
	return new Set(
		world
			.listed(account)
			.slice(from)
			.map((generation) => generation.id),
	);
}

function leftTheList({ generation, outcome }: OutcomeRef, blocked: Set<string>): boolean {
	const after = (seq: number | undefined) => seq !== undefined && seq > outcome.seq;
	return (
		blocked.has(generation.id) ||
		after(generation.deletedSeq) ||
		after(generation.outOfViewSeq) ||
		generation.rerunSeqs.some((seq) => seq > outcome.seq)
	);
}

function deletedMidRead(afterSeq: number, context: LimitContext): boolean {
	const { answers, readOf } = context.index;
	const deletions = context.world.events.filter(
		(event) => event.kind === 'delete' && event.seq > afterSeq,
	);
	if (!deletions.length) return false;
	for (let i = 1; i < answers.length; i++) {
		if (readOf[i] !== readOf[i - 1] || answers[i].seq < afterSeq) continue;
		const from = answers[i - 1].seq;
		const to = answers[i].seq;
		if (deletions.some((event) => event.seq > from && event.seq < to)) return true;
	}
	return false;
}

function shownWithinOverlap(shown: Serving[], outcome: Outcome, context: LimitContext): boolean {
	const { answers, markAt } = context.index;
	return shown.some((serving) => {
		const at = answers.findIndex((answer) => answer.seq === serving.seq);
		return at >= 0 && markAt[at] <= outcome.finishedMs + context.overlap;
	});
}
