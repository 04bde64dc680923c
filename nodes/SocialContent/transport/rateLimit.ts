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
 * The spec gives `retryAfter` without a unit. A number below 1000 is read as seconds (a wait of
 * 1000 seconds or more is not a plausible rate-limit window), 1000 and above as milliseconds.
 * Without it, the standard `Retry-After` header is used: seconds, or an HTTP date.
 * With neither, one second.
 */
export function retryAfter(body: unknown, headers: IDataObject = {}, now = Date.now()): RetryAfter {
	const hinted = (body as IDataObject | undefined)?.retryAfter;
	const fromBody = typeof hinted === 'string' && hinted.trim() !== '' ? Number(hinted) : hinted;
	if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) {
		const seconds = fromBody < 1000;
		return { ms: clamp(seconds ? fromBody * 1000 : fromBody), wholeSeconds: seconds && Number.isInteger(fromBody) && fromBody >= 1 };
	}
	const header = headers['retry-after'];
	if (typeof header === 'string' && header.trim() !== '') {
		const seconds = Number(header);
		if (Number.isFinite(seconds) && seconds >= 0) return { ms: clamp(seconds * 1000), wholeSeconds: Number.isInteger(seconds) && seconds >= 1 };
		const date = Date.parse(header);
		if (!Number.isNaN(date)) return { ms: clamp(date - now), wholeSeconds: true };
	}
	return { ms: 1000, wholeSeconds: true };
}

function clamp(ms: number): number {
	return Math.min(Math.max(Math.ceil(ms), 0), MAX_SINGLE_WAIT_MS);
}
