/**
 * Paces the requests of one run to the rate the service allows, learned from its 429 answers (the
 * spec gives a 429's `limit` and `retryAfter` but no unit and no limiter shape). docs/requests.md
 * tells the rules whole and BENCHMARKS.md what they achieve; in short, the pacer moves through
 * these phases (`Phase`):
 *
 * - `unpaced` until the first 429: what got through until then is the limiter's burst. A wait in
 *   whole seconds gives the first guess at once: the burst over its own time plus the wait, which
 *   the service rounded up; or, when the burst got the 429's `limit` through, `limit` per wait (a
 *   burst that got more straddled a reset: one window, not two). A fractional wait is exact, so it
 *   is worth one more unpaced cycle:
 * - `measuring`: what the limiter gives back over that known time is its rate.
 * - `paced`: requests spaced a little under the pace. One that holds CONFIRM_MS is the new floor,
 *   and the next is tried (up a step, or halfway to the lowest pace that drew a 429) while that
 *   could save the run's rest more than a failed try costs. A 429 at the floor lowers it a little
 *   (or to what got through, when the limit came down); at a probe, back to the floor. A guess
 *   that never held drops 20 %, or, in a short run, to the pace its first burst proved per wait.
 *   Squeezed (a ceiling well under the best floor), the pace climbs back after a quiet while.
 * - `reprobing`: settled, the pace is now and then tried at twice, the ceiling set aside; a 429
 *   puts pace and ceiling back and doubles the delay to the next try. If it holds:
 * - `climbing`: the limit rose; the pace doubles each CLIMB_CONFIRM_MS until a 429.
 *
 * Every 429 pauses all the run's requests for the whole wait it asks, and every change of pace
 * voids the slots handed out (`isCurrent`), so nothing goes out at a pace the service just refused.
 * A 429 to a request sent before the last change says nothing about the new pace.
 */
type Phase =
	| { name: 'unpaced' }
	| { name: 'measuring'; refusedAt: number; accepted: number; resumedAt: number }
	| { name: 'paced' }
	| { name: 'reprobing'; setAside: number }
	| { name: 'climbing' };

export class RequestPacer {
	private phase: Phase = { name: 'unpaced' };
	/** Requests per second; Infinity until the first pace. */
	private rate = Infinity;
	private nextSlotAt = 0;
	private pausedUntil = 0;
	/** Bumped on every change of pace: older tickets are void. */
	private epoch = 0;
	/** Highest pace that held; lowest that drew a 429; the best that ever held (a squeeze came from). */
	private floor = 0;
	private ceiling = Infinity;
	private bestFloor = 0;
	private lastRefusalAt = 0;
	/** 429s in a row at the floor: a second one backs off more. */
	private floorFailures = 0;
	/** Failed re-probes in a row: each doubles the delay to the next. */
	private reprobeFailures = 0;
	private acceptedCount = 0;
	/** Requests accepted before the first 429: the most the limiter lets through at once. */
	private burst = 0;
	/** The first unpaced burst a 429 cut short: how many got through, in how long (ms). */
	private firstCycle: { accepted: number; busyMs: number } | undefined;
	/** As many requests per wait as that burst got through (whole-second waits): a short run's fallback. */
	private provenPace = 0;
	/** What a refused request costs in waiting, as last seen (ms). */
	private refusalCostMs = 0;
	/** The 429s' `limit` when it is a count: no more than this gets through in one window. */
	private windowLimit = Infinity;
	/** The run's items, when it says how many: how many have started, and how many are through. */
	private items: { total: number; started: number; done: number } | undefined;
	/** Since the pace was last set: when its first request went out, and the accepted count then. */
	private segment: { start: number | undefined; accepted: number } = {
		start: undefined,
		accepted: 0,
	};

	/** When the next request may go out (ms since epoch); hold the ticket until then, then check `isCurrent`. */
	take(now: number): PacerTicket {
		const at = Math.max(now, this.nextSlotAt, this.pausedUntil);
		this.segment.start ??= at;
		if (Number.isFinite(this.rate)) {
			this.probe(at);
			this.nextSlotAt = at + 1000 / this.rate;
		}
		return { at, epoch: this.epoch };
	}

	/** False once the pace changed, or a 429 paused the run past the ticket's time: take a new one. */
	isCurrent(ticket: PacerTicket): boolean {
		return ticket.epoch === this.epoch && ticket.at >= this.pausedUntil;
	}

	accepted(): void {
		this.acceptedCount++;
	}

	/** The run has `total` items to go through (the action node's input): a probe weighs what is left. */
	expectItems(total: number): void {
		this.items = { total, started: 0, done: 0 };
	}

	/** One of the run's items starts: its requests count towards the run's size. */
	itemStarted(): void {
		if (this.items) this.items.started++;
	}

	/** One of the run's items is through, whether it succeeded or failed. */
	itemDone(): void {
		if (this.items) this.items.done++;
	}

	/**
	 * A 429 arrived at `now` for a request sent under `ticket`; it asks to wait `waitMs`, in whole
	 * seconds (rounded up) when `coarse`, and says its `limit` when that is a count. Returns how
	 * long the refused request waits before it takes a new slot: all of it.
	 */
	refused(
		now: number,
		waitMs: number,
		coarse: boolean,
		ticket: PacerTicket,
		limit?: number,
	): number {
		if (limit !== undefined) this.windowLimit = limit;
		const current = this.isCurrent(ticket);
		this.pause(now + waitMs);
		if (!current) return waitMs;
		this.lastRefusalAt = now;
		this.refusalCostMs = waitMs;
		const accepted = this.acceptedCount - this.segment.accepted;
		const busyMs = now - (this.segment.start ?? now);
		if (this.phase.name === 'unpaced' || this.phase.name === 'measuring')
			this.refusedUnpaced(now, waitMs, accepted, busyMs, coarse);
		else this.refusedAtPace(accepted, busyMs);
		return waitMs;
	}

	/**
	 * Nothing goes out before `untilMs`: a 429 asked to wait until then, whichever request it
	 * answered (also one that gave up on a wait too long for it).
	 */
	pause(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
		this.nextSlotAt = Math.max(this.nextSlotAt, this.pausedUntil);
	}

	/** Until when (ms since epoch) a 429 paused the run; in the past when it is not paused. */
	get pausedUntilMs(): number {
		return this.pausedUntil;
	}

	/**
	 * The waits were misread until now: read as milliseconds, they were seconds (`waitMs` now). A
	 * pace that held is a fact about the limiter whatever the unit, so it stays (and with it the
	 * pace a squeeze came down from). Otherwise what was learned is forgotten, the pause kept, and
	 * the first burst gives the first guess as if its wait had been read in seconds: no second
	 * unpaced burst draws another whole-second 429 to measure the same again.
	 */
	relearn(waitMs: number): void {
		if (this.bestFloor > 0) return this.setRate(this.rate);
		const { pausedUntil, epoch, firstCycle, items, windowLimit } = this;
		Object.assign(this, new RequestPacer());
		Object.assign(this, { items, windowLimit });
		this.pausedUntil = this.nextSlotAt = pausedUntil;
		this.epoch = epoch + 1;
		if (!firstCycle) return;
		this.firstCycle = firstCycle;
		this.burst = firstCycle.accepted;
		this.refusalCostMs = waitMs;
		this.provenPace = perWait(this.oneWindow(firstCycle.accepted) ?? firstCycle.accepted, waitMs);
		this.setRate(this.coarseFirstGuess(firstCycle.accepted, firstCycle.busyMs, waitMs));
	}

	/** The pace now, in requests per second (Infinity before the first 429). */
	get requestsPerSecond(): number {
		return this.rate;
	}

	/** `unpaced` or `measuring` → `measuring` or `paced`. */
	private refusedUnpaced(
		now: number,
		waitMs: number,
		accepted: number,
		busyMs: number,
		coarse: boolean,
	): void {
		this.burst = Math.max(this.burst, accepted);
		if (!this.firstCycle && accepted > 0) this.firstCycle = { accepted, busyMs };
		const measuring = this.phase.name === 'measuring' ? this.phase : undefined;
		// Nothing accepted measures nothing (the service refuses everything for now): stay unpaced.
		// A fractional wait first measures one more cycle.
		if (accepted === 0 || (!coarse && !measuring)) {
			if (!coarse)
				this.phase = {
					name: 'measuring',
					refusedAt: now,
					accepted: this.acceptedCount,
					resumedAt: this.pausedUntil,
				};
			return this.restartSegment();
		}
		let pace: number;
		let burstStart: number;
		if (measuring) {
			const given = this.acceptedCount - measuring.accepted + 0.5;
			pace = ((given * 1000) / Math.max(1, now - measuring.refusedAt)) * PACE.MARGIN;
			burstStart = measuring.resumedAt;
		} else {
			pace = this.coarseFirstGuess(accepted, busyMs, waitMs);
			burstStart = this.segment.start ?? now;
			this.provenPace = perWait(this.oneWindow(accepted) ?? accepted, waitMs);
		}
		this.setRate(pace);
		// The burst counts against the new pace: the first paced request goes out when it would
		// have, had the burst been paced.
		this.nextSlotAt = Math.max(this.nextSlotAt, burstStart + (accepted * 1000) / this.rate);
	}

	/** `paced`, `reprobing` or `climbing` → `paced`, at a lower pace. */
	private refusedAtPace(accepted: number, busyMs: number): void {
		const pace = this.rate;
		const phase = this.phase;
		this.phase = { name: 'paced' };
		if (phase.name === 'reprobing') {
			// The limit did not rise: back to the pace that held, the old ceiling, a longer delay.
			this.ceiling = Math.min(phase.setAside, pace);
			this.reprobeFailures++;
			return this.setRate(this.floor);
		}
		// At least what got through since this pace began, less the burst the limiter had saved up.
		const measured = busyMs >= PACE.MEASURE_MIN_MS;
		const sinceSet = measured ? ((accepted - this.burst) * 1000) / busyMs : 0;
		this.ceiling = Math.min(this.ceiling, pace);
		if (this.floor > 0 && pace <= this.floor * 1.01) {
			this.floorFailures++;
			this.floor = pace * (this.floorFailures > 1 ? PACE.BACKOFF_AGAIN : PACE.BACKOFF);
			// Even counting the saved burst in, far less got through than the pace: the limit came down.
			const gotThrough = measured ? (accepted * 1000) / busyMs : 0;
			if (gotThrough > PACE.MIN_RATE && gotThrough < pace * PACE.SQUEEZE_RATIO)
				this.floor = Math.min(this.floor, gotThrough * PACE.MARGIN);
		} else if (sinceSet > PACE.MIN_RATE) {
			this.floor = Math.max(this.floor, Math.min(sinceSet * PACE.MARGIN, pace * PACE.BACKOFF));
		}
		this.setRate(
			this.floor > 0
				? this.floor
				: Math.max(this.firstDrop(pace, accepted, busyMs), sinceSet * PACE.MARGIN),
		);
	}

	/**
	 * Where a guess that never held goes after a 429: 20 % lower; in a short run (its rest takes
	 * fewer than SHORT_RUN_WAITS of a 429's waits), straight to the pace whole-second waits prove
	 * where that is lower. `accepted` got through in `busyMs` since the guess began.
	 */
	private firstDrop(pace: number, accepted: number, busyMs: number): number {
		if (this.provenPace === 0) return pace * PACE.FIRST_FAILURE_DROP;
		// The fewer of the first burst's and this guess's (over its time, when longer than a wait):
		// a burst that straddled the limiter's reset counted two windows.
		this.provenPace = Math.min(
			this.provenPace,
			perWait(accepted, Math.max(busyMs, this.refusalCostMs)),
		);
		const restMs = (this.requestsLeft() * 1000) / this.provenPace;
		const short = restMs <= PACE.SHORT_RUN_WAITS * this.refusalCostMs;
		return short && this.provenPace < pace ? this.provenPace : pace * PACE.FIRST_FAILURE_DROP;
	}

	/**
	 * The first pace from a burst of `accepted` in `busyMs` cut short by a wait in whole seconds:
	 * the burst over its time plus the wait, which the service rounded up, so it counts as
	 * FIRST_GUESS_WAIT_CUT_MS shorter. Slow answers lengthen the burst's time, so that errs low: a
	 * burst that filled a window (`oneWindow`) goes at least `limit` per wait, and counts no more
	 * than `limit` (a straddled reset is one window, not two).
	 */
	private coarseFirstGuess(accepted: number, busyMs: number, waitMs: number): number {
		const window = this.oneWindow(accepted);
		const trueWaitMs = Math.max(waitMs - PACE.FIRST_GUESS_WAIT_CUT_MS, MIN_RATE_LIMIT_WAIT_MS);
		const overTime = (((window ?? accepted) * 1000) / (busyMs + trueWaitMs)) * PACE.MARGIN;
		return window === undefined ? overTime : Math.max(perWait(window, waitMs), overTime);
	}

	/**
	 * What one window let through, when a burst of `accepted` filled one: the 429's `limit`, if the
	 * burst got that much through and no more than twice that (one reset). A burst that got more
	 * shows the `limit` is no window's count (a rate a second beside a longer window).
	 */
	private oneWindow(accepted: number): number | undefined {
		const limit = this.windowLimit;
		return accepted >= limit && accepted <= 2 * limit ? limit : undefined;
	}

	/** At each request: a pace that held long enough is confirmed, and the phase moves on. */
	private probe(now: number): void {
		const climbing = this.phase.name === 'climbing';
		const heldMs = now - (this.segment.start ?? now);
		if (heldMs < (climbing ? PACE.CLIMB_CONFIRM_MS : PACE.CONFIRM_MS)) return;
		if (this.rate > this.floor) this.floorFailures = 0;
		this.floor = Math.max(this.floor, this.rate);
		this.bestFloor = Math.max(this.bestFloor, this.floor);
		if (this.phase.name === 'reprobing') {
			// A re-probe held: the limit rose. Climb fast to find the new one.
			this.reprobeFailures = 0;
			this.phase = { name: 'climbing' };
		}
		if (this.phase.name === 'climbing') return this.startPace(now, this.rate * PACE.CLIMB_STEP);
		// Squeezed: a while after the last 429 the ceiling is forgotten and the pace climbs back
		// towards the best one, in case the squeeze is over. A steady limit is never squeezed.
		const squeezed = this.ceiling < this.bestFloor * PACE.SQUEEZE_RATIO;
		if (squeezed && now - this.lastRefusalAt >= PACE.SQUEEZE_HOLD_MS) {
			const back = Math.min(this.rate * PACE.PROBE_STEP, this.bestFloor);
			if (!this.worthTrying(back)) return;
			this.ceiling = Infinity;
			return this.startPace(now, back);
		}
		// Halfway to the ceiling; where a 429 is costly, no more than a small step (a ceiling far
		// above, from a first guess that failed, is no reason to risk a whole wait).
		const costly = (this.refusalCostMs / 1000) * this.rate >= PACE.COSTLY_REFUSAL_REQUESTS;
		const step = this.rate * (costly ? PACE.PROBE_STEP_COSTLY : PACE.PROBE_STEP);
		let next = Number.isFinite(this.ceiling) ? Math.sqrt(this.floor * this.ceiling) : step;
		if (costly) next = Math.min(next, step);
		const settledRatio = costly ? PACE.SETTLED_RATIO_COSTLY : PACE.SETTLED_RATIO;
		if (this.ceiling / this.floor >= settledRatio && this.worthTrying(next))
			return this.startPace(now, next);
		// Settled. A limit that rises (a shared bucket freed) would never be found: now and then the
		// ceiling is set aside and twice the pace tried, after a delay that grows with what a failed
		// try holds back, doubled after each failure.
		const heldBack = Math.max(0, (this.refusalCostMs / 1000) * this.rate - 1);
		const firstMs = Math.max(PACE.REPROBE_MIN_MS, heldBack * PACE.REPROBE_MS_PER_REQUEST);
		const delayMs = Math.min(
			firstMs * 2 ** this.reprobeFailures,
			Math.max(firstMs, PACE.REPROBE_MAX_MS),
		);
		const faster = this.rate * PACE.REPROBE_STEP;
		if (now - this.lastRefusalAt < delayMs || !this.worthTrying(faster)) return;
		this.phase = { name: 'reprobing', setAside: this.ceiling };
		this.ceiling = Infinity;
		this.startPace(now, faster);
	}

	/** A new pace from `now`: its confirmation time starts at once, not at its first request. */
	private startPace(now: number, pace: number): void {
		this.setRate(pace);
		this.segment.start = now;
	}

	/**
	 * Whether a faster pace could save the run more than a failed try costs: the time it would take
	 * off the requests left, PROBE_WORTH times what a 429 makes the run wait. A run that says
	 * nothing of its size (a trigger's poll, a dropdown) always tries.
	 */
	private worthTrying(pace: number): boolean {
		const left = this.requestsLeft();
		return left * (1000 / this.rate - 1000 / pace) >= PACE.PROBE_WORTH * this.refusalCostMs;
	}

	/**
	 * Requests the run still has to send: its items not through, each as many as the started ones
	 * sent on average. An item still sending (a list read page by page) counts as sending as many
	 * again, so one item of many requests is a long run, not a short one.
	 */
	private requestsLeft(): number {
		if (!this.items) return Infinity;
		const { total, started, done } = this.items;
		const perItem = Math.max(1, this.acceptedCount / Math.max(1, started));
		return Math.max(0, total - done) * perItem;
	}

	private setRate(rate: number): void {
		if (this.phase.name === 'unpaced' || this.phase.name === 'measuring')
			this.phase = { name: 'paced' };
		this.rate = Math.max(rate, PACE.MIN_RATE);
		this.epoch++;
		this.restartSegment();
	}

	private restartSegment(): void {
		this.segment = { start: undefined, accepted: this.acceptedCount };
	}
}

/** The pace of `accepted` requests per `waitMs`, a little under. */
function perWait(accepted: number, waitMs: number): number {
	return ((accepted * 1000) / waitMs) * PACE.MARGIN;
}

export interface PacerTicket {
	/** When the request may be sent (ms since epoch). */
	at: number;
	epoch: number;
}

/** The pacer's tuning, each value with why (tuned in test/unit/pacing.test.cts, measured in `npm run bench`). */
const PACE = {
	/** Share of a measured rate used: headroom for timer jitter and measuring error. */
	MARGIN: 0.95,
	/** A pace that holds this long (ms) without a 429 is confirmed. */
	CONFIRM_MS: 2000,
	/** Each probe's step while no ceiling is known; smaller where a 429 is costly. */
	PROBE_STEP: 1.5,
	PROBE_STEP_COSTLY: 1.2,
	/** A settled pace is re-probed at this multiple; one that holds climbs by CLIMB_STEP. */
	REPROBE_STEP: 2,
	CLIMB_STEP: 2,
	/** While climbing a pace is confirmed sooner (ms): a risen limit is found within seconds. */
	CLIMB_CONFIRM_MS: 1000,
	/** Delay before a re-probe (ms): at least this, after the last 429 ... */
	REPROBE_MIN_MS: 5000,
	/** ... and this for each request a 429's wait holds back at the pace (what a failed try costs) ... */
	REPROBE_MS_PER_REQUEST: 3000,
	/** ... doubled after each failure up to this (or the first delay, if longer): a rise is still found. */
	REPROBE_MAX_MS: 20_000,
	/** A faster pace must be able to save this many times what a failed try costs. */
	PROBE_WORTH: 2,
	/** A run whose rest at the proven pace takes fewer of a 429's waits than this is short. */
	SHORT_RUN_WAITS: 15,
	/** Floor and ceiling this close: settled (looser where a 429 is costly). */
	SETTLED_RATIO: 1.05,
	SETTLED_RATIO_COSTLY: 1.12,
	/** A 429 is costly when its wait is worth this many requests at the pace. */
	COSTLY_REFUSAL_REQUESTS: 4,
	/** A ceiling under this share of the best floor: squeezed (the bucket shared for a while). */
	SQUEEZE_RATIO: 0.85,
	/** A squeezed pace starts climbing back this long (ms) after the last 429. */
	SQUEEZE_HOLD_MS: 10_000,
	/** Busy time (ms) below which what got through says nothing about the rate. */
	MEASURE_MIN_MS: 2000,
	/** A whole-second wait counts as this much (ms) shorter for the first guess: it was rounded up. */
	FIRST_GUESS_WAIT_CUT_MS: 700,
	/** After a 429 at the floor, and after another in a row: a little slower, then more. */
	BACKOFF: 0.98,
	BACKOFF_AGAIN: 0.95,
	/** After a 429 at a first guess that never held. */
	FIRST_FAILURE_DROP: 0.8,
	/** Slowest pace: one request every ten seconds. */
	MIN_RATE: 0.1,
} as const;

/** Shortest wait after a 429, whatever the service says (a "retry after 0" still counts). */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
