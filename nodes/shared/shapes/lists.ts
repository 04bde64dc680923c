/**
 * Lists and one-value answers. The spec shows none of the list answers' shapes ("Paging or
 * filtering of `GET /media`: not shown."; "Responses of `GET /posts`, `DELETE /posts/:id` and
 * `GET /find-slot/:id` …: not shown."; "Shape of the response [of credits]: not shown.").
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** Keys any list may be wrapped under, after the resource's own (`generations`, `posts`, …). */
const COMMON_LIST_KEYS = ['data', 'items', 'results', 'list'];

/**
 * The list in an answer: the array itself, or the array an object wraps (`{ data: [...] }`,
 * `{ <resource>: [...] }`, with paging fields beside it); undefined when there is none.
 */
export function unwrapList(answer: unknown, listKeys: string[] = []): unknown[] | undefined {
	if (Array.isArray(answer)) return answer;
	if (!answer || typeof answer !== 'object') return undefined;
	const record = answer as IDataObject;
	for (const key of [...listKeys, ...COMMON_LIST_KEYS]) {
		if (Array.isArray(record[key])) return record[key] as unknown[];
	}
	return undefined;
}

/** Output items from an answer: one per element of its list, or one for an object. */
export function toItems(answer: unknown, listKeys: string[] = []): INodeExecutionData[] {
	const list = unwrapList(answer, listKeys);
	if (list) return list.map((entry) => ({ json: asObject(entry) }));
	return [{ json: asObject(answer) }];
}

function asObject(value: unknown): IDataObject {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return { value: value as IDataObject['value'] };
}

/**
 * An answer whose shape the spec leaves open, as one object: an object as it is, a bare value
 * under `key` (`{ credits: 42 }`), nothing (an empty body) as `{}`.
 */
export function asRecord(answer: unknown, key: string): IDataObject {
	if (answer && typeof answer === 'object' && !Array.isArray(answer)) return answer as IDataObject;
	if (answer === undefined || answer === null || answer === '') return {};
	return { [key]: answer as IDataObject[string] };
}

/**
 * The cursor of the next page, where the service pages by cursor: `nextCursor` when the answer
 * has that field (null: the last page), else `cursor`.
 */
export function nextCursor(answer: unknown): string | number | undefined {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
	const record = answer as IDataObject;
	const cursor = 'nextCursor' in record ? record.nextCursor : record.cursor;
	return (typeof cursor === 'string' && cursor !== '') || typeof cursor === 'number'
		? cursor
		: undefined;
}

/** How many pages a list answer says there are (`pages`/`totalPages`/`pageCount`), if it says. */
export function pageCount(answer: unknown): number | undefined {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
	const record = answer as IDataObject;
	const pages = Number(record.pages ?? record.totalPages ?? record.pageCount);
	return Number.isInteger(pages) && pages > 0 ? pages : undefined;
}

/**
 * Whether a list answer says there are pages after `page`: `pages`/`totalPages`/`pageCount` above
 * it, or `hasMore`, or a `nextPage`.
 */
export function hasMorePages(answer: unknown, page: number): boolean {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return false;
	const record = answer as IDataObject;
	const pages = Number(record.pages ?? record.totalPages ?? record.pageCount);
	if (Number.isFinite(pages)) return page < pages;
	return record.hasMore === true || (record.nextPage !== undefined && record.nextPage !== null);
}
