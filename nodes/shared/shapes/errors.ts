/**
 * An error answer. The spec: "400 | Validation failed | `{ msg }` or the field errors" (the field
 * errors' shape: not shown). The real backend (NestJS) answers
 * `{ message: [...], error, statusCode }`.
 */
import type { IDataObject } from 'n8n-workflow';

/** The server's own words for a failed request: `msg`, `message`, or its field errors, listed. */
export function serverMessages(body: unknown): string[] {
	if (typeof body === 'string') return body.trim() ? [body.trim().slice(0, 300)] : [];
	if (!body || typeof body !== 'object') return [];
	const data = body as IDataObject;
	const found: string[] = [];
	// NestJS (the real backend) answers { message: [...], error: "Bad Request", statusCode }: its
	// `error` only repeats the status's name beside the messages.
	const nestStyle =
		typeof data.statusCode === 'number' &&
		data.message !== undefined &&
		typeof data.error === 'string';
	for (const key of [
		'msg',
		'message',
		...(nestStyle ? [] : ['error']),
		'errors',
		'fieldErrors',
		'details',
	]) {
		collect(data[key], '', found);
	}
	return [...new Set(found)];
}

/**
 * The field a line of the server's words names, if it names one: "count: must be at most 10"
 * (field errors as listed above), "input.slides must be an array" (class-validator, as NestJS
 * answers), `"slides" must be an array` (Joi), "each value in tags must be a string",
 * "property slides should not exist".
 */
export function fieldNamed(line: string): string | undefined {
	const name = '([\\w[\\]-]+(?:\\.[\\w[\\]-]+)*)';
	const patterns = [
		new RegExp(`^${name}: `),
		new RegExp(`^"?${name}"? (?:must|should|has to|is not|are not|cannot)\\b`),
		new RegExp(`\\beach value in (?:nested property )?${name} `),
		new RegExp(`^property ${name} `),
	];
	for (const pattern of patterns) {
		const found = pattern.exec(line)?.[1];
		if (found) return found;
	}
	return undefined;
}

function collect(value: unknown, field: string, into: string[]): void {
	if (value === undefined || value === null || value === '') return;
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		into.push(field ? `${field}: ${String(value)}` : String(value));
		return;
	}
	if (Array.isArray(value)) {
		for (const entry of value) collect(entry, field, into);
		return;
	}
	const entry = value as IDataObject;
	// { field|property|path, message|msg|constraints } records, as validation libraries write them
	const name = entry.field ?? entry.property ?? entry.path ?? entry.param;
	const text = entry.message ?? entry.msg ?? entry.constraints;
	if (name !== undefined || text !== undefined) {
		collect(text ?? '', String(name ?? field), into);
		return;
	}
	// { fieldName: message(s) } maps
	for (const [key, inner] of Object.entries(entry))
		collect(inner, field ? `${field}.${key}` : key, into);
}

/** A field a server's line names, and the values it allows when it lists them. */
export interface NamedField {
	field: string;
	/** `a, b` of "must be one of a, b" (class-validator's "one of the following values: a, b"). */
	allowed?: string;
}

/**
 * The field a line of the server's words names (see `fieldNamed`), with the values it allows
 * where it lists them (class-validator's "must be one of the following values: a, b").
 */
export function namedField(line: string): NamedField | undefined {
	const field = fieldNamed(line);
	if (!field) return undefined;
	const allowed = /\bone of(?: the following values)?:? (.+?)\.?$/.exec(line)?.[1];
	return { field, allowed };
}
