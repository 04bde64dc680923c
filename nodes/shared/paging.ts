import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, type MissingRoute, type RunContext } from './transport';
import { noticeOnOutput } from './hints';
import { hasMorePages, nextCursor, pageCount, unwrapList } from './shapes';

/** Return All / Limit, for the list operation they are shown in. */
export function pagingFields(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/**
 * Most pages read for one list that does not say how many it has, so a server that never says
 * "last page" cannot loop us forever (a page equal to the one before already ends a list whose
 * service ignores `page`); one that says is read to its end, up to MAX_STATED_PAGES.
 */
export const MAX_PAGES = 1000;
const MAX_STATED_PAGES = 100_000;

/** Where a paged read stopped: the page after the last one read, by number and cursor. */
export interface PagePosition {
	page: number;
	cursor?: string | number;
}

/**
 * How a paged read ended, when the service's paging went round in circles: it gave a cursor it
 * had given before (A → B → A), or a page it had sent before (a list claiming `totalPages: 1e9`
 * that sends its pages again). Reading on would only repeat them: the read stops there.
 */
export interface PagingLoop {
	/** The page (1-based) whose answer repeated. */
	page: number;
	what: 'cursor' | 'page';
}

/**
 * Reads a list that may or may not be paged. The spec does not say: a plain array is one page;
 * an object wrapping the list is followed while it reports more, by the cursor it gives
 * (`nextCursor`/`cursor`, sent back as `cursor`) or else page by page (`page` query; `pages`/
 * `totalPages` above the current one, or `hasMore`/`nextPage`). A page equal to the one before
 * (a service that ignores the page parameter) ends the list instead of repeating it. Each page
 * goes to `visit`, which returns whether to read on. `from` starts at a position an earlier read
 * stopped at; the answer says where the next page is, when there is one.
 */
export async function walkPages(
	run: RunContext,
	path: string,
	options: {
		qs?: IDataObject;
		listKeys?: string[];
		itemIndex?: number;
		maxPages?: number;
		missingRoute?: MissingRoute;
		from?: PagePosition;
	},
	visit: (list: unknown[], next: PagePosition | undefined) => boolean,
): Promise<{ next?: PagePosition; loop?: PagingLoop }> {
	// A list that says how many pages it has is read to its stated end (up to MAX_STATED_PAGES).
	let maxPages = options.maxPages ?? MAX_PAGES;
	const first = options.from?.page ?? 1;
	let qs = positionQuery(options.qs, options.from);
	let previous: string | undefined;
	let next: PagePosition | undefined;
	// Every page and cursor read so far (pages by a hash of what tells them apart).
	const pagesRead = new Set<number>();
	const cursorsRead = new Set<string | number>();
	if (options.from?.cursor !== undefined) cursorsRead.add(options.from.cursor);
	for (let page = first; page < first + maxPages; page++) {
		const response = await apiRequest(
			run,
			{ method: 'GET', path, qs, missingRoute: options.missingRoute },
			options.itemIndex,
		);
		const list = unwrapList(response, options.listKeys) ?? [response];
		// Its length and ends tell a page again from another: cheap on a list of 100,000.
		const seen = `${list.length}|${JSON.stringify(list[0])}|${JSON.stringify(list[list.length - 1])}`;
		if (seen === previous) return {};
		previous = seen;
		// A page sent before, not the one just before (a service that ignores `page`): a loop.
		if (pagesRead.has(hashOf(seen))) return { loop: { page, what: 'page' } };
		pagesRead.add(hashOf(seen));
		if (options.maxPages === undefined)
			maxPages = Math.max(maxPages, Math.min(pageCount(response) ?? 0, MAX_STATED_PAGES));
		const cursor = nextCursor(response);
		const more = (cursor !== undefined || hasMorePages(response, page)) && list.length > 0;
		next = more ? { page: page + 1, ...(cursor !== undefined ? { cursor } : {}) } : undefined;
		const goOn = visit(list, next);
		if (!goOn || !next) return { next };
		if (cursor !== undefined && cursorsRead.has(cursor))
			return { loop: { page: page + 1, what: 'cursor' } };
		if (cursor !== undefined) cursorsRead.add(cursor);
		qs = positionQuery(options.qs, next);
	}
	// The page guard: the service still says there is more.
	return { next };
}

/**
 * Reads a list that grows at its end from its last page to its first, each page last entry first,
 * so the newest come first. Only a list numbered in pages that says how many it has can be read
 * so: one that does not (one page, a cursor) gives its first page, reversed. `from` goes on down
 * from a page an earlier read stopped above; the answer says where, when it stops early.
 */
export async function walkPagesBackward(
	run: RunContext,
	path: string,
	options: { qs?: IDataObject; listKeys?: string[]; from?: PagePosition },
	visit: (list: unknown[]) => boolean,
): Promise<{ next?: PagePosition }> {
	const read = async (page: number) => {
		const response = await apiRequest(run, {
			method: 'GET',
			path,
			qs: positionQuery(options.qs, { page }),
		});
		return {
			response,
			list: [...(unwrapList(response, options.listKeys) ?? [response])].reverse(),
		};
	};
	let last = options.from?.page;
	if (last === undefined) {
		const first = await read(1);
		last = pageCount(first.response) ?? 1;
		if (last <= 1) {
			visit(first.list);
			return {};
		}
	}
	for (let page = last; page >= 1; page--) {
		const { list } = await read(page);
		if (!visit(list)) return page > 1 ? { next: { page: page - 1 } } : {};
	}
	return {};
}

/** A 53-bit hash of a text (cyrb53): a page's mark, kept for every page read, small whatever the page. */
function hashOf(text: string): number {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The notice a list's output gets when its service's paging went round in circles. */
export function loopNotice(loop: PagingLoop, results: string): string {
	const gave = loop.what === 'cursor' ? 'a cursor' : 'a page';
	return `The list stopped at page ${loop.page.toLocaleString('en-US')} (${results}): the service gave ${gave} it had already given, so reading on would only repeat what was read. The output holds each page once; if the list looks short, the service's paging is at fault.`;
}

/** The query of a page: its cursor when the service gave one, else its number (none for the first). */
function positionQuery(
	qs: IDataObject | undefined,
	at: PagePosition | undefined,
): IDataObject | undefined {
	if (!at || (at.page <= 1 && at.cursor === undefined)) return qs;
	return at.cursor !== undefined ? { ...qs, cursor: at.cursor } : { ...qs, page: at.page };
}

/** A list operation's results, as far as its Return All / Limit ask. */
export async function readList(
	ctx: IExecuteFunctions,
	run: RunContext,
	path: string,
	itemIndex: number,
	options: { qs?: IDataObject; listKeys?: string[]; missingRoute?: MissingRoute } = {},
): Promise<unknown[]> {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	const results: unknown[] = [];
	const { next, loop } = await walkPages(run, path, { ...options, itemIndex }, (list) => {
		results.push(...list);
		return results.length < limit;
	});
	if (loop)
		noticeOnOutput(ctx, loopNotice(loop, `${results.length.toLocaleString('en-US')} results`));
	if (next && results.length < limit) {
		// Never a silent cut: the list goes on past the page guard.
		const count = (n: number) => n.toLocaleString('en-US');
		noticeOnOutput(
			ctx,
			`The list stopped after ${count(next.page - 1)} pages (${count(results.length)} results) although the service said there were more: the output is not the whole list. Turn off Return All and set a Limit to read a known number.`,
		);
	}
	return results.slice(0, limit);
}
