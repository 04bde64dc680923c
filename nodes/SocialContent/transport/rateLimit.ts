import type { IDataObject } from 'n8n-workflow';

/** Longest single wait we accept from a server hint before treating it as implausible. */
const MAX_SINGLE_WAIT_MS = 60 * 60 * 1000;

/**
 * How long a 429 asks us to wait, in milliseconds.
 *
 * The spec gives `retryAfter` without a unit. A number below 1000 is read as seconds (a wait of
 * 1000 seconds or more is not a plausible rate-limit window), 1000 and above as milliseconds.
 * Without it, the standard `Retry-After` header is used: seconds, or an HTTP date.
 * With neither, one second.
 */
export function retryAfterMs(body: unknown, headers: IDataObject = {}, now = Date.now()): number {
	const hinted = (body as IDataObject | undefined)?.retryAfter;
	const fromBody = typeof hinted === 'string' ? Number(hinted) : hinted;
	if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) {
		return clamp(fromBody < 1000 ? fromBody * 1000 : fromBody);
	}
	const header = headers['retry-after'];
	if (typeof header === 'string' && header.trim() !== '') {
		const seconds = Number(header);
		if (Number.isFinite(seconds) && seconds >= 0) return clamp(seconds * 1000);
		const date = Date.parse(header);
		if (!Number.isNaN(date)) return clamp(date - now);
	}
	return 1000;
}

function clamp(ms: number): number {
	return Math.min(Math.max(Math.ceil(ms), 0), MAX_SINGLE_WAIT_MS);
}
