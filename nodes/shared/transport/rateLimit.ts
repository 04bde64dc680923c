import type { IDataObject } from 'n8n-workflow';

import type { RequestPacer } from './pacing';

/** Longest single wait we accept from a server hint before treating it as implausible. */
export const MAX_SINGLE_WAIT_MS = 60 * 60 * 1000;

/** Longer than any real limiter asks (a quota renews within a month): a clock or a limiter gone wrong. */
export const UNREASONABLE_WAIT_MS = 31 * 24 * 3_600_000;

export interface RetryAfter {
	ms: number;
	/** The service gave whole seconds (as an HTTP Retry-After does): the true wait may be up to 1 s less. */
	wholeSeconds: boolean;
	/**
	 * Read in milliseconds for want of evidence (a whole number with no header): the wait were it
	 * seconds. A service that keeps refusing after the short waits counts seconds (`RetryAfterUnit`).
	 */
	asSecondsMs?: number;
	/**
	 * What the service asked when it was past MAX_SINGLE_WAIT_MS (a daily quota's 20 h, or a
	 * Retry-After in 2099): `ms` is then the cap, which is ours, not the service's answer.
	 */
	beyondCapMs?: number;
}

/** A wait the service asked, capped at MAX_SINGLE_WAIT_MS; past it, what it asked is kept apart. */
function asked(ms: number, wholeSeconds: boolean): RetryAfter {
	const read = { ms: clamp(ms), wholeSeconds };
	return ms > MAX_SINGLE_WAIT_MS ? { ...read, beyondCapMs: Math.ceil(ms) } : read;
}

/**
 * How long a 429 asks us to wait.
 *
 * The spec gives `retryAfter` without a unit. Where the answer also has the standard
 * `Retry-After` header (seconds, or an HTTP date), it decides: the body's number is read in the
 * unit that agrees with it (200 beside "Retry-After: 1" is 200 ms; 3600 beside "3600" is an
 * hour). Without the header, a fraction is seconds (0.05), and a whole number is read in the
 * unit learned so far in the run (`inSeconds`), else short, as milliseconds: a wait read too short
 * costs a refused request, one read too long can cost an hour. With neither, the header alone,
 * else one second.
 */
export function retryAfter(
	body: unknown,
	headers: IDataObject = {},
	now = Date.now(),
	inSeconds = false,
): RetryAfter {
	const fromBody = numberOrText((body as IDataObject | undefined)?.retryAfter);
	const fromHeader = headerWait(headers['retry-after'], now);
	if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) {
		const whole = Number.isInteger(fromBody);
		const seconds = fromHeader
			? agreesAsSeconds(fromBody, fromHeader.beyondCapMs ?? fromHeader.ms)
			: !whole || inSeconds;
		const read = asked(seconds ? fromBody * 1000 : fromBody, seconds && whole && fromBody >= 1);
		return !fromHeader && !seconds && fromBody >= 1
			? { ...read, asSecondsMs: clamp(fromBody * 1000) }
			: read;
	}
	return fromHeader ?? { ms: 1000, wholeSeconds: true };
}

/**
 * A 429's `limit`, when it is a count (a positive number, or its text): the most its limiter lets
 * through in one window or second, the spec shows neither which nor the window. Anything else
 * (absent, "100/hour") is no count.
 */
export function refusalLimit(body: unknown): number | undefined {
	const limit = numberOrText((body as IDataObject | undefined)?.limit);
	return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : undefined;
}

/** A body field that may be a number or its text ("2"), as a number; anything else as it came. */
function numberOrText(value: unknown): unknown {
	return typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
}

/**
 * The unit of a run's header-less whole-number waits, learned from the service: read short
 * (milliseconds) until the service refuses `SWITCH_AFTER` requests in a row that were sent after
 * the last short wait (none accepted in between, so the run's own requests taking the slot does
 * not count), each answer counting down as seconds would (no more than the time waited, and a
 * second of rounding, off the first); from then on they are seconds, for the rest of the run.
 */
export class RetryAfterUnit {
	inSeconds = false;
	private streak = { count: 0, firstAt: 0, firstSecondsMs: 0 };

	/** A request went through: the short waits work. */
	accepted(): void {
		this.streak.count = 0;
	}

	/**
	 * Reads one 429's wait, `fresh` when its request was sent after the last pause; returns the
	 * wait to use, switched to seconds once the evidence is in.
	 */
	read(asked: RetryAfter, fresh: boolean, now: number): RetryAfter {
		if (asked.asSecondsMs === undefined) {
			this.streak.count = 0;
			return asked;
		}
		if (!fresh) return asked;
		const streak = this.streak;
		const countsDown =
			streak.count > 0 &&
			asked.asSecondsMs >= streak.firstSecondsMs - (now - streak.firstAt) - 1000;
		if (countsDown) streak.count++;
		else this.streak = { count: 1, firstAt: now, firstSecondsMs: asked.asSecondsMs };
		if (this.streak.count < SWITCH_AFTER) return asked;
		this.inSeconds = true;
		return { ms: asked.asSecondsMs, wholeSeconds: true };
	}
}

/**
 * The wait one 429 asks, in the unit the run has learned (`unit`), `fresh` when its request was
 * sent after the last pause. When this answer shows that the waits were seconds all along, what the
 * pace learned from them (read too short) is void: the pacer relearns.
 */
export function refusalWait(
	unit: RetryAfterUnit,
	pacer: Pick<RequestPacer, 'relearn'>,
	answer: { body: unknown; headers?: IDataObject },
	fresh: boolean,
	now: number,
): RetryAfter {
	const wasSeconds = unit.inSeconds;
	const asked = unit.read(retryAfter(answer.body, answer.headers, now, wasSeconds), fresh, now);
	if (unit.inSeconds && !wasSeconds) pacer.relearn(asked.ms);
	return asked;
}

/**
 * A quota an accepted answer says is used up, and for how long: the rate-limit headers a
 * service may send with every answer (the spec shows none). The real backend's throttler (NestJS)
 * sends `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the
 * window ends); the IETF draft names them `RateLimit-*`. `Reset` is read as seconds from now, or
 * as a Unix time (in seconds, or in milliseconds) when it is that large. Undefined unless the
 * answer says 0 remain and when they come back: the next request could only be refused.
 */
export function quotaUsedUp(
	headers: IDataObject = {},
	now = Date.now(),
): { waitMs: number; limit?: number } | undefined {
	const header = (name: string) => headers[`x-ratelimit-${name}`] ?? headers[`ratelimit-${name}`];
	if (String(header('remaining') ?? '').trim() !== '0') return undefined;
	const reset = Number(header('reset'));
	if (!Number.isFinite(reset) || reset <= 0) return undefined;
	const resetAtMs =
		reset >= UNIX_MS_FROM ? reset : reset >= UNIX_SECONDS_FROM ? reset * 1000 : now + reset * 1000;
	// Believed as it is up to a month (a daily quota's 20 h); past that (2099) not at all: the
	// next request's answer tells.
	const waitMs = Math.ceil(resetAtMs - now);
	if (waitMs <= 0 || waitMs > UNREASONABLE_WAIT_MS) return undefined;
	const limit = String(header('limit') ?? '').trim();
	return limit !== '' && Number.isFinite(Number(limit))
		? { waitMs, limit: Number(limit) }
		: { waitMs };
}

/** A `Reset` this large is a Unix time (2001 on), in seconds or milliseconds, not a wait. */
const UNIX_SECONDS_FROM = 1_000_000_000;
const UNIX_MS_FROM = 1_000_000_000_000;

/** Refusals in a row after short waits that show the service counts seconds. */
const SWITCH_AFTER = 3;

/** The `Retry-After` header's wait: seconds, or an HTTP date. */
function headerWait(header: unknown, now: number): RetryAfter | undefined {
	if (typeof header !== 'string' || header.trim() === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0)
		return asked(seconds * 1000, Number.isInteger(seconds) && seconds >= 1);
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : asked(date - now, true);
}

/**
 * Whether `value` read as seconds is closer to the header's wait than read as milliseconds. The
 * header counts whole seconds, rounded up: 200 ms shows as 1 s, 3600 s as 3600.
 */
function agreesAsSeconds(value: number, headerMs: number): boolean {
	const distance = (ms: number) => Math.abs(Math.log((ms + 1000) / (headerMs + 1000)));
	return distance(value * 1000) <= distance(value);
}

function clamp(ms: number): number {
	return Math.min(Math.max(Math.ceil(ms), 0), MAX_SINGLE_WAIT_MS);
}
