import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { DateTime, IANAZone } from 'luxon';

/**
 * A date parameter as ISO 8601 in UTC with milliseconds and `Z`, as the service wants.
 * A value without a zone (what n8n's date picker gives) is read in the workflow's timezone.
 */
export function toUtcIso(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string {
	const date = parseDate(value, ctx.getTimezone());
	if (!date) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"${label}" is not a valid date: ${JSON.stringify(value)}. Give it in ISO 8601 with a zone, for example 2026-12-01T09:30:00Z`,
			{
				itemIndex,
				description: 'Pick a date, or give one in ISO 8601 form, for example 2026-12-01T09:30:00Z.',
			},
		);
	}
	return date.toISOString();
}

/**
 * A date from a parameter or an answer. A text without an offset is wall time in `timeZone`,
 * converted by luxon (which n8n ships and uses for its own dates) at the offset in force at that
 * wall time, daylight saving included.
 */
export function parseDate(value: unknown, timeZone: string): Date | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
	if (DateTime.isDateTime(value)) return value.isValid ? value.toJSDate() : undefined;
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		return parseDate((value as { toISO: () => string }).toISO(), timeZone);
	}
	if (typeof value === 'number')
		return Number.isFinite(value) ? new Date(epochMs(value)) : undefined;
	if (typeof value !== 'string' || !value.trim()) return undefined;
	const text = value.trim();
	if (/^\d{9,}$/.test(text)) return new Date(epochMs(Number(text)));
	const zone = IANAZone.isValidZone(timeZone) ? timeZone : 'UTC';
	// ISO 8601 ("2026-12-01T09:30"), or with a space instead of the T ("2026-12-01 09:30").
	for (const parsed of [DateTime.fromISO(text, { zone }), DateTime.fromSQL(text, { zone })]) {
		if (parsed.isValid) return parsed.toJSDate();
	}
	// A date-shaped text luxon refused is no date ("2026-11-31"): Date.parse would roll it over.
	if (/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
	// Anything else as JavaScript reads it, with its own zone (RFC 2822, "Dec 1, 2026 09:30 GMT").
	const parsed = Date.parse(text);
	return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

/**
 * A Unix time in milliseconds. Below 1e12 it counts seconds: 1e12 ms is September 2001, while
 * 1e12 s is 33,000 years away, so no date of our time can be read both ways.
 */
function epochMs(value: number): number {
	return Math.abs(value) < 1e12 ? value * 1000 : value;
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

/**
 * "15 Jan 2026 10:00 CET" for labels in pickers: in the workflow's time zone, the zone shown, as
 * the user typed the date in a Date field. A service date without a zone is UTC. Undefined when
 * the value is no date.
 */
export function shortDate(value: unknown, timeZone: string): string | undefined {
	const date =
		typeof value === 'string' || typeof value === 'number' ? parseDate(value, 'UTC') : undefined;
	if (!date) return undefined;
	const zone = IANAZone.isValidZone(timeZone) ? timeZone : 'UTC';
	return DateTime.fromJSDate(date, { zone }).toFormat('d LLL yyyy HH:mm ZZZZ', { locale: 'en-GB' });
}
