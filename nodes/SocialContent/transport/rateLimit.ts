import type { IDataObject } from 'n8n-workflow';

/** Longest single wait we accept from a server hint before treating it as implausible. */
const MAX_SINGLE_WAIT_MS = 60 * 60 * 1000;

export interface RetryAfter {
	ms: number;
	/** The service gave whole seconds (as an HTTP Retry-After does): the true wait may be up to 1 s less. */
	wholeSeconds: boolean;
}

/**
 * How long a 429 asks us to wait.
 *
 * The spec gives `retryAfter` without a unit. Where the answer also has the standard
 * `Retry-After` header (seconds, or an HTTP date), it decides: the body's number is read in the
 * unit that agrees with it (200 beside "Retry-After: 1" is 200 ms; 3600 beside "3600" is an
 * hour). Without the header, a number below 1000 is read as seconds (a wait of 1000 seconds or
 * more is not a plausible rate-limit window), 1000 and above as milliseconds. With neither, the
 * header alone, else one second.
 */
export function retryAfter(body: unknown, headers: IDataObject = {}, now = Date.now()): RetryAfter {
	const hinted = (body as IDataObject | undefined)?.retryAfter;
	const fromBody = typeof hinted === 'string' && hinted.trim() !== '' ? Number(hinted) : hinted;
	const fromHeader = headerWait(headers['retry-after'], now);
	if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) {
		const seconds = fromHeader ? agreesAsSeconds(fromBody, fromHeader.ms) : fromBody < 1000;
		return { ms: clamp(seconds ? fromBody * 1000 : fromBody), wholeSeconds: seconds && Number.isInteger(fromBody) && fromBody >= 1 };
	}
	return fromHeader ?? { ms: 1000, wholeSeconds: true };
}

/** The `Retry-After` header's wait: seconds, or an HTTP date. */
function headerWait(header: unknown, now: number): RetryAfter | undefined {
	if (typeof header !== 'string' || header.trim() === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return { ms: clamp(seconds * 1000), wholeSeconds: Number.isInteger(seconds) && seconds >= 1 };
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : { ms: clamp(date - now), wholeSeconds: true };
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
