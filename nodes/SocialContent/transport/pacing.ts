/**
 * Paces the requests of one run to the rate the service allows, learned from its 429 answers.
 *
 * The spec gives a 429 `limit` and `retryAfter` but neither unit, nor the limiter's shape (a token
 * bucket, a fixed window, …). So the pace is measured, not read:
 *
 * 1. Unpaced until the first 429. Then every request waits as the service asked, and one cycle is
 *    measured: the requests accepted between the end of that wait and the next 429, over the time
 *    until the limiter lets one through again. That is the limiter's sustained rate (a bucket and
 *    a window are both full at either end of the cycle). A wait in whole seconds (`retryAfter: 1`)
 *    is rounded up by the service: half a second less is counted, the expected true wait.
 * 2. From then on requests are spaced at 98 % of that rate. Each second without a 429 confirms the
 *    rate (the floor) and probes 1.5× higher until a 429 sets a ceiling; then it searches between
 *    the two and settles once they are within 4 %.
 * 3. A 429 at the confirmed rate means a burst allowance hid the limit for a while: the rate falls
 *    to what was actually accepted since the previous 429.
 *
 * A 429 answered to a request sent before the last change of pace says nothing new and is ignored
 * here (the request itself still waits and retries). Tuned in simulation against buckets and fixed
 * and sliding windows, fractional and whole-second waits, 1 and 10 requests at once; measured in
 * `npm run bench`.
 */
export class RequestPacer {
	/** Requests per second; Infinity until the first 429. */
	private rate = Infinity;
	private nextSlotAt = 0;
	private pausedUntil = 0;
	/** Bumped on every change of pace, so late answers to older requests are recognised. */
	private epoch = 0;
	/** Highest rate that held for a second without a 429. */
	private floor = 0;
	/** Lowest rate that drew a 429. */
	private ceiling = Infinity;
	private rateSince = 0;
	private acceptedCount = 0;
	/**
	 * Where the current measurement started: accepted count then, and the time the next request
	 * went out (so a stall after a 429, with nothing in flight, is not counted as the limiter's).
	 */
	private mark: { at: number | undefined; accepted: number } | undefined;

	/** When the next request may go out (ms since epoch), and the pace it goes out under. */
	take(now: number): PacerTicket {
		const at = Math.max(now, this.nextSlotAt, this.pausedUntil);
		if (this.mark && this.mark.at === undefined) this.mark.at = at;
		if (Number.isFinite(this.rate)) {
			this.probe(at);
			this.nextSlotAt = at + 1000 / this.rate;
		}
		return { at, epoch: this.epoch };
	}

	accepted(): void {
		this.acceptedCount++;
	}

	/**
	 * A 429 arrived at `now` for a request sent under `ticket`; it asks to wait `waitMs`, in whole
	 * seconds when `coarse`.
	 */
	refused(now: number, waitMs: number, coarse: boolean, ticket: PacerTicket): void {
		if (ticket.epoch !== this.epoch) return;
		const paced = Number.isFinite(this.rate);
		const end = paced ? now : now + (coarse ? Math.max(waitMs - 500, 50) : waitMs);
		// Nothing accepted since the mark measures nothing (the service refuses everything for now),
		// and a paced span under a second is too short to mean anything.
		const accepted = this.mark ? this.acceptedCount - this.mark.accepted : 0;
		const span = end - (this.mark?.at ?? end);
		const measured = accepted > 0 && (!paced || span >= CONFIRM_MS) ? (accepted * 1000) / Math.max(1, span) : undefined;

		if (!paced) {
			this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
			this.nextSlotAt = this.pausedUntil;
			this.mark = { at: this.pausedUntil, accepted: this.acceptedCount };
			if (measured === undefined) this.epoch++;
			else this.setRate(Math.max(measured, MIN_RATE) * MARGIN, this.pausedUntil);
			return;
		}
		if (measured !== undefined || !this.mark) this.mark = { at: undefined, accepted: this.acceptedCount };
		this.ceiling = Math.min(this.ceiling, this.rate);
		if (this.floor >= this.rate * 0.99) this.floor = Math.min(this.rate * 0.9, (measured ?? Infinity) * MARGIN);
		this.setRate(this.floor > 0 ? this.floor : Math.min(this.rate * 0.7, measured ?? Infinity), now);
		this.nextSlotAt = Math.max(this.nextSlotAt, now);
	}

	/** The pace now, in requests per second (Infinity before the first 429). */
	get requestsPerSecond(): number {
		return this.rate;
	}

	private probe(now: number): void {
		if (now - this.rateSince < CONFIRM_MS) return;
		this.floor = Math.max(this.floor, this.rate);
		if (this.ceiling / this.floor < SETTLED_RATIO) return;
		this.setRate(Number.isFinite(this.ceiling) ? Math.sqrt(this.floor * this.ceiling) : this.rate * PROBE_STEP, now);
	}

	private setRate(rate: number, now: number): void {
		this.rate = Math.max(rate, MIN_RATE);
		this.rateSince = now;
		this.epoch++;
	}
}

export interface PacerTicket {
	/** When the request may be sent (ms since epoch). */
	at: number;
	epoch: number;
}

/** Share of the measured rate used: a little headroom for timer jitter. */
const MARGIN = 0.98;
/** How long a pace must hold without a 429 before it counts as confirmed. */
const CONFIRM_MS = 1000;
/** How much faster each probe goes while no ceiling is known. */
const PROBE_STEP = 1.5;
/** Floor and ceiling this close: stop probing. */
const SETTLED_RATIO = 1.04;
/** Slowest pace: one request every ten seconds. */
const MIN_RATE = 0.1;
