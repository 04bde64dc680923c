import { MIN_RATE_LIMIT_WAIT_MS } from './rateLimit';

/**
 * Paces the requests of one run to the rate the service allows, learned from its 429 answers (the
 * spec gives a 429's `limit` and `retryAfter` but no unit and no limiter shape). The pacer is in
 * one `Phase` at a time, which holds its own data; `next` is the one function that moves it on
 * an event, and docs/requests.md has its table (phases × events) and the reasons. The class keeps
 * the slots: when the next request may go, the pause a 429 asked, and the run's size.
 */
export type Phase =
	/** Sending freely until the first 429: what gets through is the limiter's burst. */
	| ({ name: 'unpaced' } & Unpaced)
	/** After a 429 asking an exact (fractional) wait: one more unpaced cycle measures the rate. */
	| ({ name: 'measuring'; refusedAt: number; acceptedAt: number; resumedAt: number } & Unpaced)
	/** A first pace that has not held yet; `provenPace`: as many per wait as a burst got through. */
	| { name: 'guessing'; since: Stretch; pace: Pace; provenPace: number }
	/** A pace that held (the floor), a faster one tried until floor and ceiling meet. */
	| { name: 'paced'; since: Stretch; pace: Pace }
	/** Paced, the ceiling well under the best floor (a bucket shared for a while): climbs back when quiet. */
	| { name: 'squeezed'; since: Stretch; pace: Pace }
	/** Settled, twice the pace tried, the ceiling set aside (`setAside`) until it holds or fails. */
	| { name: 'reprobing'; since: Stretch; pace: Pace; setAside: number }
	/** A re-probe held (the limit rose): the pace doubles each CLIMB_CONFIRM_MS until a 429. */
	| { name: 'climbing'; since: Stretch; pace: Pace };

/** `burst`: the most a refused burst got through; `firstBurst`: the first one a 429 cut short. */
type Unpaced = { since: Stretch; burst: number; firstBurst?: Burst };
type Burst = { accepted: number; busyMs: number };
type UnpacedPhase = Extract<Phase, Unpaced>;
type PacedPhase = Extract<Phase, { pace: Pace }>;
type Refused = Extract<PacerEvent, { kind: 'refused' }>;

/** Since the phase (or its pace) began: its number (older tickets are void), its first slot, the accepted count then. */
type Stretch = { epoch: number; startedAt?: number; acceptedBefore: number };

/**
 * A pace (requests per second) and what bounds it: the highest pace that held (`floor`), the
 * lowest that drew a 429 (`ceiling`), the best floor ever (`best`: a squeeze came from it); 429s
 * in a row at the floor and failed re-probes in a row; what the first 429s taught (`Learned`).
 */
type Pace = Learned & { rate: number; floor: number; ceiling: number; best: number } & Failures;
type Failures = { floorFailures: number; reprobeFailures: number };
type Learned = { burst: number; firstBurst: Burst; lastRefusalAt: number; refusalCostMs: number };

export type PacerEvent =
	/** A request's slot comes up at `at`: a pace that held long enough is confirmed, the next one tried. */
	| { kind: 'slot'; at: number }
	/** A 429 at `at` to a request sent at the current pace; the run resumes at `resumesAt`. */
	| { kind: 'refused'; at: number; waitMs: number; coarse: boolean; resumesAt: number }
	/** The waits read in milliseconds were seconds: `waitMs`, the last one, in seconds. */
	| { kind: 'seconds'; waitMs: number };

/** What the transitions read of the run: its accepted count, the 429s' `limit` (a count), the requests left. */
export type RunView = { accepted: number; windowLimit: number; requestsLeft: number };

/** The one transition: the phase `event` leads to (the same object when nothing changes). */
export function next(phase: Phase, event: PacerEvent, run: RunView): Phase {
	if (event.kind === 'slot') return slotCame(phase, event.at, run);
	if (event.kind === 'seconds') return wereSeconds(phase, event.waitMs, run);
	return 'pace' in phase ? refusedAtPace(phase, event, run) : refusedUnpaced(phase, event, run);
}

export class RequestPacer {
	private phase: Phase = { name: 'unpaced', since: { epoch: 0, acceptedBefore: 0 }, burst: 0 };
	private nextSlotAt = 0;
	private pausedUntil = 0;
	private acceptedCount = 0;
	private windowLimit = Infinity;
	/** The run's items, when it says how many: how many have started, and how many are through. */
	private items: { total: number; started: number; done: number } | undefined;

	/** The slot for a request that would go at `now`: the phase first sees the time, then the slot is taken. */
	ticket(now: number): PacerTicket {
		const at = Math.max(now, this.nextSlotAt, this.pausedUntil);
		this.apply({ kind: 'slot', at });
		return this.take(at);
	}

	/** False once the pace changed, or a 429 paused the run past the ticket's time: take a new one. */
	isCurrent(ticket: PacerTicket): boolean {
		return ticket.epoch === this.phase.since.epoch && ticket.at >= this.pausedUntil;
	}

	accepted(): void {
		this.acceptedCount++;
	}

	/** The run has `total` items (the action node's input); each starts, then is through, failed or not. */
	expectItems(total: number): void {
		this.items = { total, started: 0, done: 0 };
	}

	itemStarted(): void {
		if (this.items) this.items.started++;
	}

	itemDone(): void {
		if (this.items) this.items.done++;
	}

	/**
	 * A 429 at `now` to the request sent under `ticket`, asking `waitMs` (whole seconds when
	 * `coarse`): everything waits all of it; only one sent at the current pace teaches anything.
	 */
	refused(now: number, waitMs: number, coarse: boolean, ticket: PacerTicket, limit?: number) {
		if (limit !== undefined) this.windowLimit = limit;
		const current = this.isCurrent(ticket);
		this.pause(now + waitMs);
		if (current)
			this.apply({ kind: 'refused', at: now, waitMs, coarse, resumesAt: this.pausedUntil });
		return waitMs;
	}

	/** Nothing goes out before `untilMs` (a 429's wait, whichever request it answered). */
	pause(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
		this.nextSlotAt = Math.max(this.nextSlotAt, this.pausedUntil);
	}

	get pausedUntilMs(): number {
		return this.pausedUntil;
	}

	/**
	 * The waits were seconds, read as milliseconds until now (`waitMs` now). Unless a pace held,
	 * the learning starts over from the first burst, its counts and slots with it (the pause kept).
	 */
	relearn(waitMs: number): void {
		if (!('pace' in this.phase) || this.phase.pace.best === 0) {
			this.acceptedCount = 0;
			this.nextSlotAt = this.pausedUntil;
		}
		this.apply({ kind: 'seconds', waitMs });
	}

	/** The pace now, in requests per second (Infinity before the first pace). */
	get requestsPerSecond(): number {
		return 'pace' in this.phase ? this.phase.pace.rate : Infinity;
	}

	/** Books the slot at `at`: the next one is a pace's interval later. Changes nothing else. */
	private take(at: number): PacerTicket {
		if ('pace' in this.phase) this.nextSlotAt = at + 1000 / this.phase.pace.rate;
		return { at, epoch: this.phase.since.epoch };
	}

	private apply(event: PacerEvent): void {
		const before = this.phase;
		this.phase = next(before, event, {
			accepted: this.acceptedCount,
			windowLimit: this.windowLimit,
			requestsLeft: this.requestsLeft(),
		});
		// The first pace: the burst counts against it, so the first paced request goes out when it
		// would have, had the burst been paced.
		if (event.kind === 'refused' && !('pace' in before) && 'pace' in this.phase) {
			const burstStart =
				before.name === 'measuring' ? before.resumedAt : (before.since.startedAt ?? event.at);
			const accepted = this.acceptedCount - before.since.acceptedBefore;
			const paced = burstStart + (accepted * 1000) / this.phase.pace.rate;
			this.nextSlotAt = Math.max(this.nextSlotAt, paced);
		}
	}

	/**
	 * Requests left: the items not through, each as many as the started ones sent on average; one
	 * still sending (a list read page by page) as many again, so it is a long run, not a short one.
	 */
	private requestsLeft(): number {
		if (!this.items) return Infinity;
		const { total, started, done } = this.items;
		const perItem = Math.max(1, this.acceptedCount / Math.max(1, started));
		return Math.max(0, total - done) * perItem;
	}
}

/** When the request may be sent (ms since epoch), at which stretch's pace. */
export type PacerTicket = { at: number; epoch: number };

/** A new stretch (a new pace, or the phase begun again): the tickets handed out are void. */
function restart(since: Stretch, run: RunView, startedAt?: number): Stretch {
	return { epoch: since.epoch + 1, startedAt, acceptedBefore: run.accepted };
}

/** A pace the pacer falls back to or steps to: `paced`, or `squeezed` when its ceiling is well under the best. */
function settled(since: Stretch, pace: Pace): Phase {
	const squeezed = pace.ceiling < pace.best * PACE.SQUEEZE_RATIO;
	return { name: squeezed ? 'squeezed' : 'paced', since, pace };
}

/** `pace` at `rate` (no slower than MIN_RATE). */
function withRate(rate: number, pace: Pace): Pace {
	return { ...pace, rate: Math.max(rate, PACE.MIN_RATE) };
}

/** A 429 while unpaced or measuring: a first guess, or (nothing learned yet) one more cycle. */
function refusedUnpaced(phase: UnpacedPhase, event: Refused, run: RunView): Phase {
	const accepted = run.accepted - phase.since.acceptedBefore;
	const busyMs = event.at - (phase.since.startedAt ?? event.at);
	const burst = Math.max(phase.burst, accepted);
	const firstBurst = phase.firstBurst ?? (accepted > 0 ? { accepted, busyMs } : undefined);
	const measuring = phase.name === 'measuring' ? phase : undefined;
	// Nothing accepted measures nothing (the service refuses everything for now): stay unpaced.
	// A fractional wait is exact: one more cycle measures the rate.
	if (!firstBurst || accepted === 0 || (!event.coarse && !measuring)) {
		const since = restart(phase.since, run);
		if (event.coarse) return { ...phase, since, burst, firstBurst };
		const cycle = { refusedAt: event.at, acceptedAt: run.accepted, resumedAt: event.resumesAt };
		return { name: 'measuring', since, burst, firstBurst, ...cycle };
	}
	const learned = { burst, firstBurst, lastRefusalAt: event.at, refusalCostMs: event.waitMs };
	if (!measuring) return firstGuess(phase.since, run, { accepted, busyMs }, event.waitMs, learned);
	const given = run.accepted - measuring.acceptedAt + 0.5;
	const rate = ((given * 1000) / Math.max(1, event.at - measuring.refusedAt)) * PACE.MARGIN;
	return guessing(phase.since, run, rate, learned);
}

/**
 * The first pace from a burst cut short by a wait in whole seconds: the burst over its time plus
 * the wait, which the service rounded up. Slow answers lengthen the burst's time, so that errs
 * low: a burst that filled a window goes at least `limit` per wait, and counts no more than that.
 */
function firstGuess(since: Stretch, run: RunView, burst: Burst, waitMs: number, learned: Learned) {
	const { accepted, busyMs } = burst;
	const window = oneWindow(accepted, run.windowLimit);
	const trueWaitMs = Math.max(waitMs - PACE.FIRST_GUESS_WAIT_CUT_MS, MIN_RATE_LIMIT_WAIT_MS);
	const overTime = (((window ?? accepted) * 1000) / (busyMs + trueWaitMs)) * PACE.MARGIN;
	const rate = window === undefined ? overTime : Math.max(perWait(window, waitMs), overTime);
	return guessing(since, run, rate, learned, perWait(window ?? accepted, waitMs));
}

/** A first pace: nothing held, no ceiling. */
function guessing(since: Stretch, run: RunView, rate: number, learned: Learned, provenPace = 0) {
	const pace = withRate(rate, { ...learned, ...NOTHING_HELD, rate });
	return { name: 'guessing', since: restart(since, run), pace, provenPace } as const;
}
const NOTHING_HELD = { floor: 0, ceiling: Infinity, best: 0, floorFailures: 0, reprobeFailures: 0 };

/** The 429's `limit`, when a burst got that many through and no more than twice (a straddled reset): one window's count. */
function oneWindow(accepted: number, limit: number): number | undefined {
	return accepted >= limit && accepted <= 2 * limit ? limit : undefined;
}

/** The pace of `accepted` requests per `waitMs`, a little under. */
function perWait(accepted: number, waitMs: number): number {
	return ((accepted * 1000) / waitMs) * PACE.MARGIN;
}

/** A 429 at a pace: back to the floor (a little lower at the floor itself), or a lower guess. */
function refusedAtPace(phase: PacedPhase, event: Refused, run: RunView): Phase {
	const since = restart(phase.since, run);
	const { rate } = phase.pace;
	const pace = { ...phase.pace, lastRefusalAt: event.at, refusalCostMs: event.waitMs };
	// A re-probe failed (the limit did not rise): the pace that held, the old ceiling, a longer delay.
	if (phase.name === 'reprobing') {
		const ceiling = Math.min(phase.setAside, rate);
		const reprobeFailures = pace.reprobeFailures + 1;
		return settled(since, withRate(pace.floor, { ...pace, ceiling, reprobeFailures }));
	}
	const accepted = run.accepted - phase.since.acceptedBefore;
	const busyMs = event.at - (phase.since.startedAt ?? event.at);
	// At least what got through since this pace began, less the burst the limiter had saved up.
	const measured = busyMs >= PACE.MEASURE_MIN_MS;
	const sinceSet = measured ? ((accepted - pace.burst) * 1000) / busyMs : 0;
	let { floor, floorFailures } = pace;
	const ceiling = Math.min(pace.ceiling, rate);
	if (floor > 0 && rate <= floor * 1.01) {
		floorFailures++;
		floor = rate * (floorFailures > 1 ? PACE.BACKOFF_AGAIN : PACE.BACKOFF);
		// Even counting the saved burst in, far less got through than the pace: the limit came down.
		const gotThrough = measured ? (accepted * 1000) / busyMs : 0;
		if (gotThrough > PACE.MIN_RATE && gotThrough < rate * PACE.SQUEEZE_RATIO)
			floor = Math.min(floor, gotThrough * PACE.MARGIN);
	} else if (sinceSet > PACE.MIN_RATE) {
		floor = Math.max(floor, Math.min(sinceSet * PACE.MARGIN, rate * PACE.BACKOFF));
	}
	const lowered = { ...pace, floor, floorFailures, ceiling };
	if (phase.name !== 'guessing' || floor > 0) return settled(since, withRate(floor, lowered));
	// A guess that never held: 20 % lower, or in a short run the pace whole-second waits proved,
	// the fewer of the first burst's and this guess's (over its time, when longer than a wait).
	const provenPace =
		phase.provenPace === 0
			? 0
			: Math.min(phase.provenPace, perWait(accepted, Math.max(busyMs, event.waitMs)));
	const dropped = rate * PACE.FIRST_FAILURE_DROP;
	const short = provenPace > 0 && isShortRun(provenPace, event.waitMs, run) && provenPace < rate;
	const guess = Math.max(short ? provenPace : dropped, sinceSet * PACE.MARGIN);
	return { name: 'guessing', since, pace: withRate(guess, lowered), provenPace };
}

/** A short run: its rest at `provenPace` takes fewer than SHORT_RUN_WAITS of a 429's waits. */
function isShortRun(provenPace: number, refusalCostMs: number, run: RunView): boolean {
	return (run.requestsLeft * 1000) / provenPace <= PACE.SHORT_RUN_WAITS * refusalCostMs;
}

/** A slot comes up: the stretch's first slot starts it; a pace that held long enough is confirmed and the next tried. */
function slotCame(phase: Phase, now: number, run: RunView): Phase {
	const { startedAt } = phase.since;
	if (startedAt === undefined) return { ...phase, since: { ...phase.since, startedAt: now } };
	if (!('pace' in phase)) return phase;
	const climbing = phase.name === 'climbing';
	if (now - startedAt < (climbing ? PACE.CLIMB_CONFIRM_MS : PACE.CONFIRM_MS)) return phase;
	const held = phase.pace;
	const pace = {
		...held,
		floor: Math.max(held.floor, held.rate),
		best: Math.max(held.best, held.floor, held.rate),
		floorFailures: held.rate > held.floor ? 0 : held.floorFailures,
	};
	const from = (rate: number, bounds: Partial<Pace> = {}) => withRate(rate, { ...pace, ...bounds });
	const since = restart(phase.since, run, now);
	// A re-probe held: the limit rose. Climb fast to find the new one.
	if (phase.name === 'reprobing')
		return {
			name: 'climbing',
			since,
			pace: from(pace.rate * PACE.CLIMB_STEP, { reprobeFailures: 0 }),
		};
	if (climbing) return { name: 'climbing', since, pace: from(pace.rate * PACE.CLIMB_STEP) };
	const quietMs = now - pace.lastRefusalAt;
	// Squeezed: a while after the last 429 the ceiling is forgotten and the pace climbs back towards
	// the best one, in case the squeeze is over. A steady limit is never squeezed.
	if (pace.ceiling < pace.best * PACE.SQUEEZE_RATIO && quietMs >= PACE.SQUEEZE_HOLD_MS) {
		const back = Math.min(pace.rate * PACE.PROBE_STEP, pace.best);
		if (!worthTrying(pace, back, run)) return settled(phase.since, pace);
		return settled(since, from(back, { ceiling: Infinity }));
	}
	const probe = nextProbe(pace);
	if (probe !== undefined && worthTrying(pace, probe, run)) return settled(since, from(probe));
	// Settled. A limit that rises (a shared bucket freed) would never be found: now and then the
	// ceiling is set aside and twice the pace tried, after a delay that grows with what a failed
	// try holds back, doubled after each failure.
	const heldBack = Math.max(0, (pace.refusalCostMs / 1000) * pace.rate - 1);
	const firstMs = Math.max(PACE.REPROBE_MIN_MS, heldBack * PACE.REPROBE_MS_PER_REQUEST);
	const maxMs = Math.max(firstMs, PACE.REPROBE_MAX_MS);
	const delayMs = Math.min(firstMs * 2 ** pace.reprobeFailures, maxMs);
	const faster = pace.rate * PACE.REPROBE_STEP;
	if (quietMs < delayMs || !worthTrying(pace, faster, run)) return settled(phase.since, pace);
	const setAside = pace.ceiling;
	return { name: 'reprobing', since, pace: from(faster, { ceiling: Infinity }), setAside };
}

/**
 * The next pace to try while floor and ceiling are apart: halfway between them (no ceiling: a
 * step up); where a 429 is costly, no more than a small step (a ceiling far above, from a first
 * guess that failed, is no reason to risk a whole wait). Undefined once settled.
 */
function nextProbe(pace: Pace): number | undefined {
	const costly = (pace.refusalCostMs / 1000) * pace.rate >= PACE.COSTLY_REFUSAL_REQUESTS;
	const step = pace.rate * (costly ? PACE.PROBE_STEP_COSTLY : PACE.PROBE_STEP);
	const halfway = Number.isFinite(pace.ceiling) ? Math.sqrt(pace.floor * pace.ceiling) : step;
	const settledRatio = costly ? PACE.SETTLED_RATIO_COSTLY : PACE.SETTLED_RATIO;
	if (pace.ceiling / pace.floor < settledRatio) return undefined;
	return costly ? Math.min(halfway, step) : halfway;
}

/**
 * Whether `faster` could save the run more than a failed try costs: the time it would take off
 * the requests left, PROBE_WORTH times a 429's wait. A run that does not say its size always tries.
 */
function worthTrying(pace: Pace, faster: number, run: RunView): boolean {
	const savedMs = run.requestsLeft * (1000 / pace.rate - 1000 / faster);
	return savedMs >= PACE.PROBE_WORTH * pace.refusalCostMs;
}

/** The waits were seconds: a pace that held stays (a fact whatever the unit); else the first burst read in seconds. */
function wereSeconds(phase: Phase, waitMs: number, run: RunView): Phase {
	const since = restart(phase.since, run);
	if ('pace' in phase && phase.pace.best > 0) return { ...phase, since };
	const first = 'pace' in phase ? phase.pace.firstBurst : phase.firstBurst;
	if (!first) return { name: 'unpaced', since, burst: 0 };
	const learned = {
		burst: first.accepted,
		firstBurst: first,
		lastRefusalAt: 0,
		refusalCostMs: waitMs,
	};
	return firstGuess(phase.since, run, first, waitMs, learned);
}

/** The pacer's tuning (tuned in test/unit/pacing.test.cts, measured in `npm run bench`). */
const PACE = {
	/** Share of a measured rate used: headroom for timer jitter and measuring error. */
	MARGIN: 0.95,
	/** A pace that holds this long (ms) is confirmed; sooner while climbing, so a risen limit is found within seconds. */
	CONFIRM_MS: 2000,
	CLIMB_CONFIRM_MS: 1000,
	/** Probe steps with no ceiling known (smaller where a 429 is costly); a re-probe's and a climb's. */
	PROBE_STEP: 1.5,
	PROBE_STEP_COSTLY: 1.2,
	REPROBE_STEP: 2,
	CLIMB_STEP: 2,
	/** A re-probe waits this long (ms) after the last 429, and this per request a 429's wait holds back (what a failed try costs) ... */
	REPROBE_MIN_MS: 5000,
	REPROBE_MS_PER_REQUEST: 3000,
	/** ... doubled after each failure up to this (or the first delay, if longer): a rise is still found. */
	REPROBE_MAX_MS: 20_000,
	/** A faster pace must be able to save this many times what a failed try costs. */
	PROBE_WORTH: 2,
	/** A run whose rest at the proven pace takes fewer of a 429's waits than this is short. */
	SHORT_RUN_WAITS: 15,
	/** Floor and ceiling this close: settled (looser where a 429 is costly: its wait is worth COSTLY_REFUSAL_REQUESTS). */
	SETTLED_RATIO: 1.05,
	SETTLED_RATIO_COSTLY: 1.12,
	COSTLY_REFUSAL_REQUESTS: 4,
	/** A ceiling under this share of the best floor: squeezed; it climbs back this long (ms) after the last 429. */
	SQUEEZE_RATIO: 0.85,
	SQUEEZE_HOLD_MS: 10_000,
	/** Busy time (ms) below which what got through says nothing about the rate. */
	MEASURE_MIN_MS: 2000,
	/** A whole-second wait counts as this much (ms) shorter for the first guess: it was rounded up. */
	FIRST_GUESS_WAIT_CUT_MS: 700,
	/** After a 429 at the floor, and after another in a row; after one at a first guess that never held. */
	BACKOFF: 0.98,
	BACKOFF_AGAIN: 0.95,
	FIRST_FAILURE_DROP: 0.8,
	/** Slowest pace: one request every ten seconds. */
	MIN_RATE: 0.1,
} as const;
