import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { forTime, timeLeftMs } from './deadline';
import { apiError, durationText, type ErrorContext, type RequestLine } from './errors';
import type { PacerTicket, RequestPacer } from './pacing';
import type { RunContext } from './runContext';

/**
 * The 429 policy, whole: what a 429 (or an answer saying the quota is used up) makes a request
 * do, the caps on waiting and their words. A 429 is waited out and the request sent again, for
 * any method: the service did nothing. How fast the run then goes is the pacer's (pacing.ts).
 */

/** Shortest wait after a 429, whatever the service says: a "retry after 0" still counts. */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
/** Longest wait waited out for one 429; past it the request fails at once, naming what was asked. */
export const MAX_SINGLE_WAIT_MS = 60 * 60 * 1000;
/** Longer than any real limiter asks (a quota renews within a month): a clock or a limiter gone wrong. */
export const UNREASONABLE_WAIT_MS = 31 * 24 * 3_600_000;
/** Most 429 answers one request takes before it fails, whatever the waits add up to. */
export const MAX_RATE_LIMITED_TRIES = 100;
/** Request Options' Max Rate Limit Wait (seconds) when not set: the most one request waits on 429s. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;

type GiveUp = { notSent?: true; triesCapped?: boolean; beyondCapMs?: number };

/**
 * One request's 429s (exchange.ts calls it around each send): each wait is taken while it fits
 * Max Rate Limit Wait and the run's time, else the request fails naming the wait.
 */
export class RateLimitWaits {
	private waitedMs = 0;
	private tries = 0;

	constructor(
		private readonly run: RunContext,
		private readonly pacer: RequestPacer,
		private readonly maxWaitMs: number,
		private readonly request: RequestLine & { offInstance?: boolean },
		private readonly failure: ErrorContext,
	) {}

	/** Before a slot: a pause another request's 429 set, longer than this one may wait, fails it unsent. */
	checkPause(): void {
		const pausedMs = this.pacer.pausedUntilMs - this.run.clock.now();
		if (!this.fits(pausedMs)) throw this.giveUp(this.run.lastRefusal, pausedMs, { notSent: true });
	}

	/** A 429 (its body read safely, else `{}`) to the request sent under `ticket`: waited out, or thrown. */
	async waitOut(body: unknown, headers: IDataObject, ticket: PacerTicket, signal?: AbortSignal) {
		const { run, pacer } = this;
		const now = run.clock.now();
		// Sent after the last pause (not already on its way when a 429 came back).
		const fresh = pacer.isCurrent(ticket);
		const asked = refusalWait(run.retryAfterUnit, pacer, { body, headers }, fresh, now);
		// The floor makes every wait count against Max Rate Limit Wait; the cap on tries ends a loop.
		const waitMs = Math.max(asked.ms, MIN_RATE_LIMIT_WAIT_MS);
		const triesCapped = ++this.tries >= MAX_RATE_LIMITED_TRIES;
		if (!this.request.offInstance) run.lastRefusal = body;
		// A wait past the hour (a daily quota, a Retry-After in 2099) is never waited out.
		if (triesCapped || asked.beyondCapMs !== undefined || !this.fits(waitMs)) {
			// The wait stands for the rest of the run, though this request gives up on it.
			pacer.pause(now + waitMs);
			throw this.giveUp(body, waitMs, { triesCapped, beyondCapMs: asked.beyondCapMs });
		}
		const ownWaitMs = pacer.refused(now, waitMs, asked.wholeSeconds, ticket, refusalLimit(body));
		this.waitedMs += ownWaitMs;
		await run.clock.wait(ownWaitMs, signal);
	}

	/** An answer that is not a 429; one saying the quota is used up pauses the run until it renews. */
	accepted(headers: IDataObject): void {
		this.pacer.accepted();
		this.run.retryAfterUnit.accepted();
		const usedUp = this.request.offInstance
			? undefined
			: quotaUsedUp(headers, this.run.clock.now());
		if (!usedUp) return;
		this.pacer.pause(this.run.clock.now() + usedUp.waitMs);
		this.run.lastRefusal = usedUp.limit === undefined ? {} : { limit: usedUp.limit };
	}

	private fits(waitMs: number): boolean {
		return this.waitedMs + waitMs <= this.maxWaitMs && waitMs <= timeLeftMs(this.run);
	}

	/**
	 * The error for giving up on a wait of `askedMs`: the wait in plain units and what to do (the
	 * message is all an AI agent's model is given). Marked for the deadline when that, not Max Rate
	 * Limit Wait, stopped it (`notSent`: an earlier 429 of the run paused it).
	 */
	private giveUp(body: unknown, askedMs: number, how: GiveUp): NodeApiError {
		const { notSent, triesCapped, beyondCapMs } = how;
		const { waitedMs, tries, maxWaitMs, run, request } = this;
		const late = !triesCapped && beyondCapMs === undefined && waitedMs + askedMs <= maxWaitMs;
		const data = (body && typeof body === 'object' ? body : {}) as IDataObject;
		const bucket = data.bucket !== undefined ? ` on bucket "${String(data.bucket)}"` : '';
		const limit = data.limit !== undefined ? ` (limit ${String(data.limit)})` : '';
		const answer = { statusCode: 429, body, method: request.method, path: request.path };
		const error = (message: string, description: string) =>
			apiError(this.failure, answer, `Rate limited${bucket}${limit}: ${message}`, description);
		// Past the cap: a daily quota's wait is said as asked; one past any real limiter's, as such.
		if (beyondCapMs !== undefined && beyondCapMs > UNREASONABLE_WAIT_MS)
			return error(
				`the service asked for an unreasonable wait (${durationText(beyondCapMs)}); try again later`,
				`The service's 429 asks to wait ${durationText(beyondCapMs)}, far past any real rate limit (the node waits at most ${durationText(askedMs)} for one 429), so it was not sent again: the instance's clock or its rate limiter may be misconfigured. Try again later; if it persists, tell the instance's administrator.`,
			);
		const said = durationText(beyondCapMs ?? askedMs);
		const waited = Math.round(waitedMs / 1000);
		if (triesCapped)
			return error(
				'refused every time; try again later, with fewer requests at once',
				`The service answered 429 ${tries} times in a row to this request (waited ${waited} s); it gives up rather than loop. Lower "Concurrent Requests" or send fewer items at once, and check the instance's rate limits.`,
			);
		const boundMs = late ? run.callBoundMs : undefined;
		const maxRateLimitWaitS = Math.round(
			Math.min(maxWaitMs, waitedMs + Math.max(0, timeLeftMs(run))) / 1000,
		);
		const [stoppedBy, advice] =
			boundMs === undefined
				? [
						`the node's "Max Rate Limit Wait" of ${maxRateLimitWaitS} s`,
						'Raise that option under Request Options, or send fewer items at once.',
					]
				: [
						`what is left of this tool call (${Math.round(boundMs / 1000)} s at most, for its caller gives up)`,
						`Nothing was done: make the same call again in ${said}.`,
					];
		const failed = error(
			`try again in ${said}`,
			`The service asks to wait ${said}${waited ? ` more, after ${waited} s of waiting` : ''}${notSent ? ' (it said so to an earlier request of this run)' : ''}: that passes ${stoppedBy}, so it was not sent${notSent ? '' : ' again'}. ${advice}`,
		);
		return late ? forTime(failed, { nothingDone: true, retryInMs: askedMs }) : failed;
	}
}

/**
 * A 429's wait. `wholeSeconds`: given in whole seconds (the true wait may be up to 1 s less).
 * `asSecondsMs`: read in milliseconds for want of evidence (a whole number, no header), the wait
 * were it seconds (`RetryAfterUnit`). `beyondCapMs`: what was asked past MAX_SINGLE_WAIT_MS (a
 * daily quota's 20 h, a Retry-After in 2099); `ms` is then our cap, not the service's answer.
 */
export type RetryAfter = {
	ms: number;
	wholeSeconds: boolean;
	asSecondsMs?: number;
	beyondCapMs?: number;
};

/** A wait the service asked, capped at MAX_SINGLE_WAIT_MS; past it, what it asked is kept apart. */
function asked(ms: number, wholeSeconds: boolean): RetryAfter {
	const read = { ms: clamp(ms), wholeSeconds };
	return ms > MAX_SINGLE_WAIT_MS ? { ...read, beyondCapMs: Math.ceil(ms) } : read;
}

/**
 * How long a 429 asks to wait. The spec gives `retryAfter` without a unit. A `Retry-After` header
 * (seconds, or an HTTP date) decides: the body's number is read in the unit that agrees with it
 * (200 beside "1" is 200 ms; 3600 beside "3600" an hour). Without it a fraction is seconds, a whole
 * number in the unit the run learned (`inSeconds`), else as milliseconds: a wait read too short
 * costs a refused request, one read too long can cost an hour. With neither: the header, or 1 s.
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

/** A 429's `limit` when it is a count (a positive number, or its text; not "100/hour"): per window or second, the spec does not say. */
export function refusalLimit(body: unknown): number | undefined {
	const limit = numberOrText((body as IDataObject | undefined)?.limit);
	return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : undefined;
}

/** A body field that may be a number or its text ("2"), as a number; anything else as it came. */
function numberOrText(value: unknown): unknown {
	return typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
}

/**
 * The unit of a run's header-less whole-number waits: milliseconds until the service refuses
 * SWITCH_AFTER requests in a row sent after the last short wait (none accepted between), each
 * answer counting down as seconds would (no more than the time waited, and a second of rounding,
 * off the first); seconds from then on, for the rest of the run.
 */
export class RetryAfterUnit {
	inSeconds = false;
	private streak = { count: 0, firstAt: 0, firstSecondsMs: 0 };

	/** A request went through: the short waits work. */
	accepted(): void {
		this.streak.count = 0;
	}

	/** One 429's wait (`fresh`: its request was sent after the last pause), in seconds once the evidence is in. */
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

/** One 429's wait in the run's unit; when it shows the waits were seconds all along, the pacer relearns. */
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
 * A quota an accepted answer says is used up (0 remain), and until when: the next request could
 * only be refused. The spec shows no such headers; the real backend's throttler (NestJS) sends
 * `X-RateLimit-Limit/-Remaining/-Reset` (seconds to the window's end), the IETF draft `RateLimit-*`.
 * A `Reset` that large is a Unix time (seconds or milliseconds).
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
