import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export interface FailedResponse {
	statusCode: number;
	/** Parsed JSON body, or the raw text when it was not JSON. */
	body: unknown;
	method: string;
	path: string;
}

/** Replaces every occurrence of the credential's secret; the secret never reaches a user. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	// The secret may also sit inside a JSON string, where some characters are escaped.
	const escaped = JSON.stringify(secret).slice(1, -1);
	return text.split(secret).join('[redacted]').split(escaped).join('[redacted]');
}

/** A web page where JSON was expected: a login page, a proxy page, an SPA's index.html. */
export function looksLikeHtml(body: string, contentType: string): boolean {
	return /text\/html/i.test(contentType) || /^\s*</.test(body);
}

export function apiError(
	node: INode,
	response: FailedResponse,
	message: string,
	description: string,
	itemIndex: number | undefined,
	secret: string | undefined,
): NodeApiError {
	const errorResponse: JsonObject = {
		httpCode: String(response.statusCode),
		request: `${response.method} ${response.path}`,
		response: JSON.parse(redact(JSON.stringify(summarize(response.body)), secret)) as JsonObject,
	};
	return new NodeApiError(node, errorResponse, {
		message: redact(message, secret),
		description: redact(description, secret),
		httpCode: String(response.statusCode),
		itemIndex,
	});
}

/** The server's own words for a failed request: `msg`, `message`, or its field errors, listed. */
export function serverMessages(body: unknown): string[] {
	if (typeof body === 'string') return body.trim() ? [body.trim().slice(0, 300)] : [];
	if (!body || typeof body !== 'object') return [];
	const data = body as IDataObject;
	const found: string[] = [];
	for (const key of ['msg', 'message', 'error', 'errors', 'fieldErrors', 'details']) {
		collect(data[key], '', found);
	}
	return [...new Set(found)];
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
	for (const [key, inner] of Object.entries(entry)) collect(inner, field ? `${field}.${key}` : key, into);
}

function summarize(body: unknown): JsonObject | string {
	if (typeof body === 'string') return body.slice(0, 500);
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as JsonObject;
	return String(body ?? '');
}
