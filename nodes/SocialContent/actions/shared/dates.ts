import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * A date parameter as ISO 8601 in UTC with milliseconds and `Z`, as the service wants.
 * A value without a zone (what n8n's date picker gives) is read in the workflow's timezone.
 */
export function toUtcIso(ctx: IExecuteFunctions, value: unknown, label: string, itemIndex: number): string {
	const date = parseDate(value, ctx.getTimezone());
	if (!date) {
		throw new NodeOperationError(ctx.getNode(), `"${label}" is not a valid date: ${JSON.stringify(value)}`, {
			itemIndex,
			description: 'Pick a date, or give one in ISO 8601 form, for example 2026-12-01T09:30:00Z.',
		});
	}
	return date.toISOString();
}

export function parseDate(value: unknown, timeZone: string): Date | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return parseDate((value as { toISO: () => string }).toISO(), timeZone);
	}
	if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
	if (typeof value !== 'string' || !value.trim()) return undefined;
	const text = value.trim();
	const local = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/.exec(text);
	if (local) {
		const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = local;
		const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0'));
		const check = new Date(asUtc);
		if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d) return undefined;
		return new Date(asUtc - offsetMs(asUtc, timeZone));
	}
	const parsed = Date.parse(text);
	return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

/** The zone's offset from UTC at (about) that instant, in milliseconds. */
function offsetMs(utcMs: number, timeZone: string): number {
	let zone = timeZone;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
	} catch {
		zone = 'UTC';
	}
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
	return wall - Math.floor(utcMs / 1000) * 1000;
}

/** Dates the service returns, normalised to ISO with `Z` where they parse; others left as they are. */
export function normaliseDates<T extends Record<string, unknown>>(record: T, fields: string[]): T {
	const copy: Record<string, unknown> = { ...record };
	for (const field of fields) {
		const value = copy[field];
		if (typeof value === 'string' || typeof value === 'number') {
			const parsed = parseDate(value, 'UTC');
			if (parsed) copy[field] = parsed.toISOString();
		}
	}
	return copy as T;
}
