import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * Output items from an API answer: one per element of a list, whether the server sent the array
 * itself or an object wrapping it (`{ data: [...] }`, `{ items: [...] }`, …); one for an object.
 */
export function toItems(data: unknown, listKeys: string[] = []): INodeExecutionData[] {
	const list = Array.isArray(data) ? data : unwrapList(data, listKeys);
	if (list) return list.map((entry) => ({ json: asObject(entry) }));
	return [{ json: asObject(data) }];
}

const COMMON_LIST_KEYS = ['data', 'items', 'results', 'list'];

/** The array inside a wrapper object, when the object is only that wrapper (plus paging fields). */
export function unwrapList(data: unknown, listKeys: string[] = []): unknown[] | undefined {
	if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
	const record = data as IDataObject;
	for (const key of [...listKeys, ...COMMON_LIST_KEYS]) {
		if (Array.isArray(record[key])) return record[key] as unknown[];
	}
	return undefined;
}

function asObject(value: unknown): IDataObject {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return { value: value as IDataObject['value'] };
}

/**
 * An answer whose shape the spec leaves open, as one object: an object as it is, a bare value
 * under `key` (`{ credits: 42 }`), nothing (an empty body) as `{}`.
 */
export function asRecord(response: unknown, key: string): IDataObject {
	if (response && typeof response === 'object' && !Array.isArray(response))
		return response as IDataObject;
	if (response === undefined || response === null || response === '') return {};
	return { [key]: response as IDataObject[string] };
}
