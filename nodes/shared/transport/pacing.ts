/**
 * Paces the requests of one run to the rate the service allows, learned from its 429 answers.
 *
 * The spec gives a 429 `limit` and `retryAfter` but neither unit, nor the limiter's shape (a token
 * bucket, a fixed or sliding window, …). So the pace is measured, not read:
 *
 * 1. Unpaced until the first 429. The requests accepted until then are the limiter's burst.
 *    - A fractional wait (`retryAfter: 0.05`) is exact: one more unpaced cycle measures what the
 *      limiter gives back over a known time, which is its rate.
 *    - A wait in whole seconds (`retryAfter: 1`, as an HTTP Retry-After) is rounded up by the
 *      service, so a second cycle would cost a second and measure the rounding: the burst over its
 *      own time plus the expected true wait is the first guess instead.
 *    - A whole number with no header is read as milliseconds until the service shows it counts
 *      seconds (`RetryAfterUnit`); then what was learned from the misread waits is void, but the
 *      first burst still measures the limiter and gives the first guess (`relearn`).
 *    The burst counts against the new pace: the first paced request goes out when it would have,
 *    had the burst been paced.
 * 2. From then on requests are spaced at a little under that rate. A pace that holds (no 429 for
 *    a while) is confirmed and the next one probed: higher by a step while no ceiling is known,
 *    else halfway (geometrically) to the lowest pace that drew a 429. Once the two are close, it
 *    settles. Where a 429 costs many requests' worth of waiting (whole seconds), steps are smaller
 *    (also towards a ceiling far above) and it settles sooner: a probe that fails costs more than
 *    the last few percent gain.
 * 3. A 429 at the confirmed pace means it was a little too fast, or a burst hid the limit: the
 *    pace drops a little, and more if it happens again. A 429 at a probe returns to the confirmed
 *    pace, or to what was accepted since the pace was set (burst subtracted) where that is higher.
 * 4. A settled pace is tried again now and then at twice the speed, with the ceiling set aside: a
 *    limit that rose (another workflow stopped sharing it) is found whatever the run saw before.
 *    If the try holds, the pace doubles each second until a 429; if it fails, the pace and the
 *    ceiling are as before. A failed try costs about one 429's wait; the next try waits at least
 *    5 s, and 3 s for each request that wait holds back at the pace (57 s at 20 a second with
 *    whole-second waits), doubled after each failure up to 20 s (or that first delay, if longer),
 *    so a rise after a long steady stretch is still found within seconds.
 * 5. The run says how many items it has (`expectItems`, `itemStarted`; the action node does, a
 *    trigger's poll does not), and so how many requests are left: a faster pace is tried only while the requests left could save twice what a failed try
 *    costs (a 429's wait), so the last seconds of a run are not spent on one. A guess that fails
 *    before any pace held usually drops 20 % and tries again; in a run whose rest takes fewer than
 *    15 such waits at the pace whole-second waits prove (as many requests per wait as got through
 *    in one go), the pace goes straight there instead of descending in 20 % steps, a second each.
 *    Where the window is shorter than the wait, that pace is half the allowed one, for a short
 *    run's rest at most.
 *
 * Every 429 pauses all requests of the run, the refused one included, for the whole wait it asks
 * (a request sent sooner may be counted against the run, or lengthen the block), also a 429 to a
 * request sent before the last change. A change of pace or a pause voids the slots already handed
 * out: their holders take new ones (`isCurrent`), so nothing goes out at a pace the service just
 * refused. A 429 to a request sent before the last change says nothing about the new pace.
 *
 * Tuned in simulation (test/unit/pacing.test.cts) against buckets of several bursts, fixed and
 * sliding windows, fractional and whole-second waits, 1 and 10 requests at once, short and long
 * latencies, one request per item and many; measured in real time in `npm run bench`. The
 * figures: docs/requests.md.
 */
export class RequestPacer {
	/** Requests per second; Infinity until the first 429. */
	private rate = Infinity;
	private nextSlotAt = 0;
	private pausedUntil = 0;
	/** Bumped on every change of pace: older tickets are void. */
	private epoch = 0;
	/** Highest pace that held. */
	private floor = 0;
	/** Lowest pace that drew a 429. */
	private ceiling = Infinity;
	/** Highest pace that ever held: where a squeeze came down from. */
	private bestFloor = 0;
	/** When the last 429 arrived. */
	private lastRefusalAt = 0;
	/** 429s in a row at the confirmed pace. */
	private floorFailures = 0;
	private acceptedCount = 0;
	/** Requests accepted before the first 429: the most the limiter lets through at once. */
	private burst = 0;
	/**
	 * From a first burst cut short by a whole-second wait: as many requests per wait as got through
	 * (the limiter's window taken as the wait), where a failed guess of a short run goes next.
	 */
	private provenPace = 0;
	/** The run's items, when it says how many: how many have started, and how many are through. */
	private items: { total: number; started: number; done: number } | undefined;
	/** What a refused request costs in waiting, as last seen (ms). */
	private refusalCostMs = 0;
	/** The first unpaced burst the limiter cut short: how many got through, in how long (ms). */
	private firstCycle: { accepted: number; busyMs: number } | undefined;
	/** Failed re-probes in a row (a settled pace tried higher, refused): each doubles the delay to the next. */
	private reprobeFailures = 0;
	/** While a re-probe runs: the ceiling set aside for it, restored if it fails. */
	private setAside: number | undefined;
	/** A re-probe held: the limit rose, and the pace climbs fast until the next 429. */
	private climbing = false;
	/** While measuring the second unpaced cycle (fractional waits): where it began. */
	private measuring: { refusedAt: number; accepted: number; resumedAt: number } | undefined;
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
	 * seconds (rounded up) when `coarse`. Returns how long the refused request waits before it takes
	 * a new slot: all of it.
	 */
	refused(now: number, waitMs: number, coarse: boolean, ticket: PacerTicket): number {
		const current = this.isCurrent(ticket);
		this.pause(now + waitMs);
		// Sent before the last change: it says nothing about the pace.
		if (!current) return waitMs;
		this.lastRefusalAt = now;
		this.refusalCostMs = waitMs;
		const accepted = this.acceptedCount - this.segment.accepted;
		const busyMs = now - (this.segment.start ?? now);
		if (Number.isFinite(this.rate)) this.refusedAtPace(accepted, busyMs);
		else this.refusedUnpaced(now, waitMs, accepted, busyMs, coarse);
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
	 * The waits were misread until now: read as milliseconds, they were seconds (`waitMs` now).
	 * - A pace that held is a fact about the limiter whatever the unit (the waits only follow a
	 *   429): it stays, and must hold again from now on. Forgetting it would also forget the pace
	 *   a squeeze came down from, and the run would never climb back.
	 * - Otherwise what was learned came from waits read too short, and is forgotten; the pause
	 *   stays. The first burst still measures the limiter: the first guess comes from it, as if its
	 *   wait had been read in seconds, so no second unpaced burst draws another whole-second 429
	 *   to measure the same again.
	 */
	relearn(waitMs: number): void {
		if (this.bestFloor > 0) return this.setRate(this.rate);
		const { pausedUntil, epoch, firstCycle, items } = this;
		Object.assign(this, new RequestPacer());
		this.items = items;
		this.pausedUntil = this.nextSlotAt = pausedUntil;
		this.epoch = epoch + 1;
		if (!firstCycle) return;
		this.firstCycle = firstCycle;
		this.burst = firstCycle.accepted;
		this.refusalCostMs = waitMs;
		this.provenPace = perWait(firstCycle.accepted, waitMs);
		this.setRate(coarseFirstGuess(firstCycle.accepted, firstCycle.busyMs, waitMs));
	}

	/** The pace now, in requests per second (Infinity before the first 429). */
	get requestsPerSecond(): number {
		return this.rate;
	}

	private refusedUnpaced(
		now: number,
		waitMs: number,
		accepted: number,
		busyMs: number,
		coarse: boolean,
	): void {
		this.burst = Math.max(this.burst, accepted);
		if (!this.firstCycle && accepted > 0) this.firstCycle = { accepted, busyMs };
		// Nothing accepted measures nothing (the service refuses everything for now): stay unpaced.
		// A fractional wait first measures one more cycle.
		if (accepted === 0 || (!coarse && !this.measuring)) {
			if (!coarse)
				this.measuring = {
					refusedAt: now,
					accepted: this.acceptedCount,
					resumedAt: this.pausedUntil,
				};
			return this.restartSegment();
		}
		const { pace, burstStart } = this.measuring
			? {
					pace:
						(((this.acceptedCount - this.measuring.accepted + 0.5) * 1000) /
							Math.max(1, now - this.measuring.refusedAt)) *
						MARGIN,
					burstStart: this.measuring.resumedAt,
				}
			: {
					pace: coarseFirstGuess(accepted, busyMs, waitMs),
					burstStart: this.segment.start ?? now,
				};
		if (!this.measuring) this.provenPace = perWait(accepted, waitMs);
		this.setRate(pace);
		this.nextSlotAt = Math.max(this.nextSlotAt, burstStart + (accepted * 1000) / this.rate);
	}

	private refusedAtPace(accepted: number, busyMs: number): void {
		const pace = this.rate;
		this.climbing = false;
		if (this.setAside !== undefined) {
			// The re-probe failed: the limit did not rise. Back to the pace that held, the old
			// ceiling, and a longer delay before the next try.
			this.ceiling = Math.min(this.setAside, pace);
			this.setAside = undefined;
			this.reprobeFailures++;
			return this.setRate(this.floor);
		}
		// At least what got through since this pace began, less the burst the limiter had saved up.
		const sinceSet = busyMs >= MEASURE_MIN_MS ? ((accepted - this.burst) * 1000) / busyMs : 0;
		this.ceiling = Math.min(this.ceiling, pace);
		if (this.floor > 0 && pace <= this.floor * 1.01) {
			this.floorFailures++;
			this.floor = pace * (this.floorFailures > 1 ? BACKOFF_AGAIN : BACKOFF);
			// What got through since is well below the pace: the limit came down, follow it.
			// Even counting the saved burst in, far less got through than the pace: the limit came down.
			const gotThrough = busyMs >= MEASURE_MIN_MS ? (accepted * 1000) / busyMs : 0;
			if (gotThrough > MIN_RATE && gotThrough < pace * SQUEEZE_RATIO)
				this.floor = Math.min(this.floor, gotThrough * MARGIN);
		} else if (sinceSet > MIN_RATE) {
			this.floor = Math.max(this.floor, Math.min(sinceSet * MARGIN, pace * BACKOFF));
		}
		this.setRate(
			this.floor > 0
				? this.floor
				: Math.max(this.firstDrop(pace, accepted, busyMs), sinceSet * MARGIN),
		);
	}

	/**
	 * Where a guess that never held goes after a 429 (point 5 above): 20 % lower; in a short run,
	 * straight to the pace whole-second waits prove where that is lower. `accepted` got through in
	 * `busyMs` since the guess began.
	 */
	private firstDrop(pace: number, accepted: number, busyMs: number): number {
		if (this.provenPace === 0) return pace * FIRST_FAILURE_DROP;
		// The fewer of the first burst's and this guess's (over its time, when longer than a wait):
		// a burst that straddled the limiter's reset counted two windows.
		this.provenPace = Math.min(
			this.provenPace,
			perWait(accepted, Math.max(busyMs, this.refusalCostMs)),
		);
		const short =
			(this.requestsLeft() * 1000) / this.provenPace <= SHORT_RUN_WAITS * this.refusalCostMs;
		return short && this.provenPace < pace ? this.provenPace : pace * FIRST_FAILURE_DROP;
	}

	/** A pace that held long enough is confirmed; then the next is tried, unless settled. */
	private probe(now: number): void {
		if (now - (this.segment.start ?? now) < (this.climbing ? CLIMB_CONFIRM_MS : CONFIRM_MS)) return;
		if (this.rate > this.floor) this.floorFailures = 0;
		this.floor = Math.max(this.floor, this.rate);
		this.bestFloor = Math.max(this.bestFloor, this.floor);
		if (this.setAside !== undefined) {
			// A re-probe held: the limit rose. Climb fast to find the new one.
			this.setAside = undefined;
			this.reprobeFailures = 0;
			this.climbing = true;
		}
		if (this.climbing) return this.startPace(now, this.rate * CLIMB_STEP);
		// Squeezed (the limit came down well below a pace that held, a bucket shared for a while):
		// a while after the last 429 the ceiling is forgotten and the pace climbs back towards the
		// best one, in case the squeeze is over. A steady limit is never squeezed, so never re-probed.
		const squeezed = this.ceiling < this.bestFloor * SQUEEZE_RATIO;
		if (squeezed && now - this.lastRefusalAt >= SQUEEZE_HOLD_MS) {
			const back = Math.min(this.rate * PROBE_STEP, this.bestFloor);
			if (!this.worthTrying(back)) return;
			this.ceiling = Infinity;
			return this.startPace(now, back);
		}
		const costly = (this.refusalCostMs / 1000) * this.rate >= COSTLY_REFUSAL_REQUESTS;
		// Halfway to the ceiling; where a 429 is costly, no more than a small step (a ceiling far
		// above, from a first guess that failed, is no reason to risk a whole second).
		const step = this.rate * (costly ? PROBE_STEP_COSTLY : PROBE_STEP);
		let next = Number.isFinite(this.ceiling) ? Math.sqrt(this.floor * this.ceiling) : step;
		if (costly) next = Math.min(next, step);
		const close = this.ceiling / this.floor < (costly ? SETTLED_RATIO_COSTLY : SETTLED_RATIO);
		if (!close && this.worthTrying(next)) return this.startPace(now, next);
		// Settled: close enough, or too little of the run left to win back a failed try. A limit that
		// rises (a shared bucket freed) would never be found: now and then the ceiling is set aside
		// and a faster pace tried (point 4 above).
		const heldBack = Math.max(0, (this.refusalCostMs / 1000) * this.rate - 1);
		const firstMs = Math.max(REPROBE_MIN_MS, heldBack * REPROBE_MS_PER_REQUEST);
		const delayMs = Math.min(
			firstMs * 2 ** this.reprobeFailures,
			Math.max(firstMs, REPROBE_MAX_MS),
		);
		if (now - this.lastRefusalAt < delayMs || !this.worthTrying(this.rate * REPROBE_STEP)) return;
		this.setAside = this.ceiling;
		this.ceiling = Infinity;
		this.startPace(now, this.rate * REPROBE_STEP);
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
		return left * (1000 / this.rate - 1000 / pace) >= PROBE_WORTH * this.refusalCostMs;
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
		this.rate = Math.max(rate, MIN_RATE);
		this.epoch++;
		this.restartSegment();
	}

	private restartSegment(): void {
		this.segment = { start: undefined, accepted: this.acceptedCount };
	}
}

/** The pace of `accepted` requests per `waitMs`, a little under. */
function perWait(accepted: number, waitMs: number): number {
	return ((accepted * 1000) / waitMs) * MARGIN;
}

/**
 * The first pace from a burst cut short by a wait in whole seconds (a little under): the service
 * rounded the true wait up, so it counts as `FIRST_GUESS_WAIT_CUT_MS` shorter; the burst over its
 * own time plus that wait.
 */
function coarseFirstGuess(accepted: number, busyMs: number, waitMs: number): number {
	const trueWaitMs = Math.max(waitMs - FIRST_GUESS_WAIT_CUT_MS, MIN_RATE_LIMIT_WAIT_MS);
	return ((accepted * 1000) / Math.max(1, busyMs + trueWaitMs)) * MARGIN;
}

export interface PacerTicket {
	/** When the request may be sent (ms since epoch). */
	at: number;
	epoch: number;
}

/** Share of a measured rate used: headroom for timer jitter and measuring error. */
const MARGIN = 0.95;
/** How long a pace must hold without a 429 before it counts as confirmed. */
const CONFIRM_MS = 2000;
/** How much faster each probe goes while no ceiling is known; smaller where a 429 is costly. */
const PROBE_STEP = 1.5;
const PROBE_STEP_COSTLY = 1.2;
/** A settled pace is tried this much faster now and then; a try that holds climbs by CLIMB_STEP. */
const REPROBE_STEP = 2;
const CLIMB_STEP = 2;
/** How long a pace must hold while climbing after a limit rose. */
const CLIMB_CONFIRM_MS = 1000;
/**
 * Before a settled pace is tried again: at least REPROBE_MIN_MS after the last 429, and
 * REPROBE_MS_PER_REQUEST for each request a 429's wait holds back at the pace (what a failed try
 * costs), doubled after each failed try.
 */
const REPROBE_MS_PER_REQUEST = 3000;
const REPROBE_MIN_MS = 5000;
/** The doubling stops here (a rise comes within seconds of it), or at the first delay if longer. */
const REPROBE_MAX_MS = 20_000;
/** A faster pace is tried only if it could save this many times what a failed try costs. */
const PROBE_WORTH = 2;
/** A run whose rest at the pace its first burst proves takes fewer of a 429's waits than this is short. */
const SHORT_RUN_WAITS = 15;
/** Floor and ceiling this close: stop probing. Looser where a 429 is costly. */
const SETTLED_RATIO = 1.05;
const SETTLED_RATIO_COSTLY = 1.12;
/** A 429 is costly when its wait is worth this many requests at the current pace. */
const COSTLY_REFUSAL_REQUESTS = 4;
/** A ceiling under this share of the best pace that held: the limit was squeezed (shared for a while). */
const SQUEEZE_RATIO = 0.85;
/** How long after the last 429 a squeezed pace starts climbing back. */
const SQUEEZE_HOLD_MS = 10_000;
/** Busy time below which what got through says nothing about the rate. */
const MEASURE_MIN_MS = 2000;
/** For the first guess from whole seconds: the wait counted as this much shorter. */
const FIRST_GUESS_WAIT_CUT_MS = 700;
/** Pace after a 429 at the confirmed pace, and after another one in a row. */
const BACKOFF = 0.98;
const BACKOFF_AGAIN = 0.95;
/** Pace after a 429 at the first guess, where no pace is confirmed yet. */
const FIRST_FAILURE_DROP = 0.8;
/** Shortest wait after a 429, whatever the service says (a "retry after 0" still counts). */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
/** Slowest pace: one request every ten seconds. */
const MIN_RATE = 0.1;
