import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A required text parameter, trimmed; empty is a parameter error that names the field. */
export function requiredText(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text =
		typeof value === 'string'
			? value.trim()
			: value === null || value === undefined
				? ''
				: String(value).trim();
	if (!text) {
		throw new NodeOperationError(ctx.getNode(), `"${label}" is empty`, {
			itemIndex,
			description: `Enter a value for "${label}", or an expression that gives one.`,
		});
	}
	return text;
}

/** The id from a resource locator (from the list or by ID), or a plain string parameter. */
export function locatorId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as
		| string
		| number
		| INodeParameterResourceLocator;
	const id =
		typeof value === 'object' && value !== null ? String(value.value ?? '') : String(value ?? '');
	if (!id.trim()) {
		throw new NodeOperationError(ctx.getNode(), `No ${label} chosen`, {
			itemIndex,
			description: `Pick a ${label} from the list, or enter its ID.`,
		});
	}
	return id.trim();
}

/** A JSON object parameter (type json or a string holding JSON); empty gives `{}`. */
export function jsonObject(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === '' || value === undefined || value === null) return {};
	let parsed = value;
	if (typeof value === 'string') {
		if (!value.trim()) return {};
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), `"${label}" is not valid JSON`, {
				itemIndex,
				description: `${(error as Error).message}. Enter a JSON object, for example {"key": "value"}.`,
			});
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(ctx.getNode(), `"${label}" must be a JSON object`, {
			itemIndex,
			description: 'Enter an object in braces, for example {"key": "value"}.',
		});
	}
	return parsed as IDataObject;
}

/** Name/value pairs from a fixedCollection, as an object; values that look like JSON are parsed. */
export function keyValuePairs(
	pairs: Array<{ name?: string; value?: unknown }> | undefined,
): IDataObject {
	const result: IDataObject = {};
	for (const { name, value } of pairs ?? []) {
		if (!name) continue;
		result[name] = typeof value === 'string' ? parseScalar(value) : (value as IDataObject[string]);
	}
	return result;
}

/**
 * Text as typed: true/false, null and JSON become what they spell; a number only when it reads
 * back the same, so an ID of 20 digits or "1.50" stays text instead of losing digits.
 */
export function parseScalar(value: string): IDataObject[string] {
	const trimmed = value.trim();
	if (/^-?\d+(\.\d+)?$/.test(trimmed))
		return String(Number(trimmed)) === trimmed ? Number(trimmed) : value;
	if (/^(true|false|null)$/.test(trimmed) || /^[[{]/.test(trimmed)) {
		try {
			return JSON.parse(trimmed) as IDataObject[string];
		} catch {
			return value;
		}
	}
	return value;
}

/**
 * Longest a tool call takes, all of it (waits, requests, downloads): well inside a caller's usual
 * 60 s (an MCP client's default), after which a model may make the call again.
 */
export const TOOL_CALL_BOUND_MS = 40_000;

/** n8n runs a node offered to an AI agent or an MCP client as the node type with "Tool" after its name. */
export function isToolRun(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}
