import type { IHttpRequestOptions } from 'n8n-workflow';

import { cancelSignalOf, discardBody, sendAuthenticated, type RawResponse } from './connection';
import { forTime, noTimeLeftError, timeLeftMs } from './deadline';
import {
	isNetworkError,
	isTimeout,
	networkError,
	requestNotSentError,
	type ErrorContext,
	type RequestLine,
} from './errors';
import { RequestPacer } from './pacing';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_S, RateLimitWaits } from './rateLimit';
import { UnreadableAnswer, withoutSecrets, withoutWrittenSecrets } from '../shapes/secrets';
import type { ApiContext, RunContext } from './runContext';

interface RequestLimits {
	/** Most time, in milliseconds, one request may spend waiting on 429 answers. */
	maxRateLimitWaitMs: number;
	/** How long, in milliseconds, a request may take to the end of its answer (a download: its longest silence). */
	timeoutMs: number;
}

/** Request Options' Timeout (seconds) when not set: what the panel shows, and what a run without it uses. */
export const DEFAULT_TIMEOUT_S = 120;
const DEFAULT_LIMITS: RequestLimits = {
	maxRateLimitWaitMs: DEFAULT_MAX_RATE_LIMIT_WAIT_S * 1000,
	timeoutMs: DEFAULT_TIMEOUT_S * 1000,
};

/** Delays before the retries of a read whose answer was lost (network error or 500/502/504). */
export const READ_RETRY_DELAYS_MS = [300, 1000];

/** Statuses after which a read is tried again: the server may answer differently next time. */
const TRANSIENT_STATUSES = [500, 502, 504];

/**
 * Sends a request until it has an answer worth reading, at the run's pace (pacing.ts; a file on
 * another host, `offInstance`, has a pace of its own), its 429s waited out (rateLimit.ts). A read
 * whose answer was lost, or that hit 500/502/504, is tried again a bounded number of times; a
 * write never is, so nothing is created twice.
 */
export async function exchange(
	run: RunContext,
	request: RequestLine & { offInstance?: boolean },
	options: IHttpRequestOptions,
	itemIndex: number | undefined,
): Promise<RawResponse> {
	const ctx = run.n8n;
	const connection = await run.connectionFor(itemIndex);
	const pacer = request.offInstance ? new RequestPacer() : run.pacer;
	const limits = limitsOf(ctx, itemIndex);
	const sendOnce = async (timeoutMs: number) =>
		await sendAuthenticated(
			ctx,
			connection,
			{ ...options, timeout: timeoutMs },
			{ followOffInstance: request.download === true },
		);
	const isRead = request.method === 'GET';
	const signal = cancelSignalOf(ctx);
	let readRetries = 0;
	const retriesLeft = () => isRead && readRetries < READ_RETRY_DELAYS_MS.length;
	// A read is tried again only when the try and its wait fit in what the run has left.
	const retryFits = () =>
		run.deadlineMs === undefined ||
		run.clock.now() + READ_RETRY_DELAYS_MS[readRetries] + MIN_REQUEST_TIMEOUT_MS <= run.deadlineMs;
	const retryLater = async () => await run.clock.wait(READ_RETRY_DELAYS_MS[readRetries++], signal);
	const at = { node: ctx.getNode(), connection, itemIndex };
	const rateLimits = new RateLimitWaits(run, pacer, limits.maxRateLimitWaitMs, request, at);
	for (;;) {
		rateLimits.checkPause();
		const ticket = pacer.ticket(run.clock.now());
		const holdMs = ticket.at - run.clock.now();
		// A tool call's caller gives up at its bound: nothing is held or sent past it.
		if (run.callBoundMs !== undefined && holdMs >= timeLeftMs(run))
			throw noTimeLeftError(at, request, run.callBoundMs);
		if (holdMs > 0) await run.clock.wait(holdMs, signal);
		// A 429 or a change of pace while holding voids the slot: take one at the new pace.
		if (!pacer.isCurrent(ticket)) continue;
		// Each try gets what the run has left, not what the first one had.
		const timeoutMs = timeoutWithin(run, limits.timeoutMs);
		let response: RawResponse;
		try {
			response = await sendOnce(timeoutMs);
		} catch (error) {
			if (!isNetworkError(error)) throw requestNotSentError(at, error);
			const retries = !signal?.aborted && retriesLeft();
			if (retries && retryFits()) {
				await retryLater();
				continue;
			}
			throw noAnswerError(run, at, request, error, { timeoutMs, limits, retries, readRetries });
		}

		if (response.statusCode === 429) {
			const answer = parseAnswer(await bodyText(response));
			// A body that could not be read safely says nothing (the headers may still say the wait).
			const body = answer instanceof UnreadableAnswer ? {} : answer;
			await rateLimits.waitOut(body, response.headers, ticket, signal);
			continue;
		}
		rateLimits.accepted(response.headers);
		if (TRANSIENT_STATUSES.includes(response.statusCode) && retriesLeft() && retryFits()) {
			discardBody(response);
			await retryLater();
			continue;
		}
		return response;
	}
}

/** No answer came, and no retry is left or fits: cut short by the deadline, marked so, or the network's. */
function noAnswerError(
	run: RunContext,
	at: ErrorContext,
	request: RequestLine,
	error: unknown,
	tried: { timeoutMs: number; limits: RequestLimits; retries: boolean; readRetries: number },
) {
	const cut = isTimeout(error) && tried.timeoutMs < tried.limits.timeoutMs;
	const callBoundMs = cut ? run.callBoundMs : undefined;
	const failed = networkError(at, request, error, {
		...tried,
		made: tried.readRetries + 1,
		callBoundMs,
	});
	const late = (tried.retries || cut) && run.deadlineMs !== undefined;
	return late ? forTime(failed, { nothingDone: false }) : failed;
}

/** The node's Request Options where it has them (the action node), else the defaults; one read per request. */
export function limitsOf(ctx: ApiContext, itemIndex: number | undefined): RequestLimits {
	if (!('getInputData' in ctx)) return DEFAULT_LIMITS;
	const given = ctx.getNodeParameter('requestOptions', itemIndex ?? 0, {}) as {
		maxRateLimitWait?: unknown;
		timeout?: unknown;
	};
	const seconds = (value: unknown, fallbackMs: number) =>
		value === undefined || value === '' ? fallbackMs / 1000 : Number(value);
	return {
		maxRateLimitWaitMs:
			Math.max(0, seconds(given.maxRateLimitWait, DEFAULT_LIMITS.maxRateLimitWaitMs) || 0) * 1000,
		timeoutMs:
			Math.max(1, seconds(given.timeout, DEFAULT_LIMITS.timeoutMs) || DEFAULT_TIMEOUT_S) * 1000,
	};
}

/**
 * The Timeout cut to what the run has left (a poll's budget, a tool call's bound). A poll's request
 * out of time still gets MIN_REQUEST_TIMEOUT_MS; a tool call's never runs past its bound.
 */
export function timeoutWithin(run: RunContext, timeoutMs: number): number {
	if (run.deadlineMs === undefined) return timeoutMs;
	const leftMs = Math.ceil(run.deadlineMs - run.clock.now());
	return Math.min(
		timeoutMs,
		Math.max(run.callBoundMs === undefined ? MIN_REQUEST_TIMEOUT_MS : 1, leftMs),
	);
}

/** A poll's request out of its time still gets this long to answer. */
const MIN_REQUEST_TIMEOUT_MS = 2000;

/** The body as text, whether the helper returned a string, bytes or a stream. */
export async function bodyText(response: RawResponse): Promise<string> {
	const body = response.body;
	if (typeof body === 'string') return body;
	if (body instanceof ArrayBuffer || Buffer.isBuffer(body))
		return Buffer.from(body as ArrayBuffer).toString('utf8');
	if (body && typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') {
		const chunks: Buffer[] = [];
		let size = 0;
		// An error page is small; stop reading past 1 MiB rather than hold a large body.
		for await (const chunk of body as AsyncIterable<Uint8Array>) {
			chunks.push(Buffer.from(chunk));
			size += chunk.length;
			if (size > 1024 * 1024) break;
		}
		return Buffer.concat(chunks).toString('utf8');
	}
	return String(body ?? '');
}

/**
 * Every answer, success or error, read as a value here and nowhere else: its JSON without secret
 * fields (secrets.ts), or its text without the secrets written into it. JSON that does not parse,
 * or is too deep to strip, is an UnreadableAnswer: none of it may be shown (fail closed).
 */
export function parseAnswer(text: string): unknown {
	let parsed: unknown;
	try {
		parsed = JSON.parse(keepLargeIntegers(text));
	} catch {
		const start = text.trimStart()[0];
		return start === '{' || start === '['
			? new UnreadableAnswer('JSON that does not parse')
			: withoutWrittenSecrets(text);
	}
	try {
		return withoutSecrets(parsed);
	} catch (error) {
		return error instanceof UnreadableAnswer
			? error
			: new UnreadableAnswer('its secrets could not be stripped');
	}
}

/** JSON text with every integer beyond 2^53 outside strings made a string: 9007199254740993 would parse as …992, two ids as one. */
export function keepLargeIntegers(text: string): string {
	if (!/\d{16}/.test(text)) return text;
	let out = '';
	let from = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
			continue;
		}
		if (char === '"') {
			inString = true;
			continue;
		}
		if (char !== '-' && (char < '0' || char > '9')) continue;
		let end = index + 1;
		while (end < text.length && /[0-9.eE+-]/.test(text[end])) end++;
		const token = text.slice(index, end);
		if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
			out += `${text.slice(from, index)}"${token}"`;
			from = end;
		}
		index = end - 1;
	}
	return out + text.slice(from);
}
