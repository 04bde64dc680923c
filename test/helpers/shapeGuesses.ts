/**
 * Answers the spec leaves open, and the forms of each that this package accepts. Everything here
 * is a guess, not the spec: each group quotes the spec's "not shown" it stands for. Tests that feed
 * the node such an answer take its shape from here, so a reader can tell contract from assumption.
 * The node's side of each guess: actions/items.ts (lists), actions/shared/paging.ts (pages),
 * actions/shared/formats.ts (format records), actions/shared/formatInputs.ts (a format's inputs),
 * actions/shared/posts.ts (post records).
 */
import type { IDataObject } from 'n8n-workflow';

type Wrap = (list: IDataObject[], resourceKey: string) => unknown;

/** A list answer: the array itself or one object around it. */
export const LIST_SHAPES = {
	spec: [
		'"Paging or filtering of `GET /media`: not shown."',
		'"Responses of `GET /posts`, `DELETE /posts/:id` and `GET /find-slot/:id` … : not shown."',
		'"Field names and shape of the format record: not shown."',
	],
	shapes: {
		'a bare array': (list) => list,
		'{ data: [...] }': (list) => ({ data: list }),
		'{ items: [...] }': (list) => ({ items: list }),
		'{ results: [...] }': (list) => ({ results: list }),
		'{ list: [...] }': (list) => ({ list }),
		'{ <resource>: [...] }, e.g. { generations: [...] }': (list, resourceKey) => ({
			[resourceKey]: list,
		}),
	} satisfies Record<string, Wrap>,
};

type Page = (list: IDataObject[], page: number, pages: number) => unknown;

/** A page of a paged list, and how it says more pages follow (the next is asked with ?page=N). */
export const PAGE_SHAPES = {
	spec: ['"Paging or filtering of `GET /media`: not shown."'],
	shapes: {
		'{ pages, results }': (list, _page, pages) => ({ pages, results: list }),
		'{ page, totalPages, data }': (list, page, pages) => ({ page, totalPages: pages, data: list }),
		'{ pageCount, items }': (list, _page, pages) => ({ pageCount: pages, items: list }),
		'{ hasMore, data }': (list, page, pages) => ({ hasMore: page < pages, data: list }),
		'{ nextPage, data }': (list, page, pages) => ({
			nextPage: page < pages ? page + 1 : null,
			data: list,
		}),
	} satisfies Record<string, Page>,
};

/** A studio format record: how it names its id and its price, and how the list holds them. */
export const FORMAT_SHAPES = {
	spec: [
		'"Studio format | has an id (`formatId` when used in a request), inputs, and credit price | Field names and shape of the format record: not shown."',
	],
	idNames: ['id', 'formatId', 'slug'],
	priceNames: ['credits', 'price', 'cost', 'creditPrice', 'creditCost'],
	/** A price as a number or as a numeric string. */
	priceValues: [3, '3'],
	containers: {
		'an array': (records: IDataObject[]) => records,
		'{ formats: [...] }': (records: IDataObject[]) => ({ formats: records }),
		'a map of id → record': (records: IDataObject[]) =>
			Object.fromEntries(records.map(({ id, ...rest }) => [String(id), rest])),
	},
};

/**
 * A format's inputs (what Start Generation shows as fields). Each shape describes the same two
 * inputs: `prompt` (text, required) and `seconds` (a number, optional), except a list of names,
 * which says neither required nor type.
 */
export const FORMAT_INPUT_SHAPES = {
	spec: [
		'"Studio format | has an id …, inputs, and credit price | Field names and shape of the format record: not shown."',
	],
	shapes: {
		'a list of names': ['prompt', 'seconds'],
		'a comma-separated string': 'prompt, seconds',
		'a list of field records (name, type, required)': [
			{ name: 'prompt', type: 'string', required: true },
			{ name: 'seconds', type: 'integer', required: false },
		],
		'a list of field records (key, kind, optional)': [
			{ key: 'prompt', kind: 'text', optional: false },
			{ key: 'seconds', kind: 'number', optional: true },
		],
		'a map of name → record': {
			prompt: { type: 'string', required: true },
			seconds: { type: 'number' },
		},
		'a map of name → type': { prompt: 'string', seconds: 'number' },
		'a JSON Schema': {
			type: 'object',
			properties: { prompt: { type: 'string' }, seconds: { type: 'integer' } },
			required: ['prompt'],
		},
	} as Record<string, unknown>,
};

/** What a post is, in the forms its record may take. */
export interface PostFacts {
	id: string;
	status: 'scheduled' | 'draft' | 'published' | 'failed';
	content: string;
	dateMs: number;
	channel: { id: string; name: string; identifier: string };
	url?: string;
	error?: string;
	publishedMs?: number;
}

type PostRecord = (post: PostFacts) => IDataObject;

/** A post record in a GET /posts answer (the list around it: LIST_SHAPES). */
export const POST_RECORD_SHAPES = {
	spec: [
		'"Post | post creation returns one item per channel carrying `postId` | Fields of the post record in lists: not shown."',
	],
	shapes: {
		// The real backend's list query (posts.repository.ts, getPosts): no failure reason, no creation time.
		'the real backend: state QUEUE/PUBLISHED/ERROR/DRAFT, releaseURL, integration object': (
			post,
		) => ({
			id: post.id,
			content: post.content,
			publishDate: new Date(post.dateMs).toISOString(),
			releaseURL: post.url ?? null,
			state: { scheduled: 'QUEUE', draft: 'DRAFT', published: 'PUBLISHED', failed: 'ERROR' }[
				post.status
			],
			intervalInDays: null,
			group: `grp_${post.id}`,
			tags: [],
			integration: {
				id: post.channel.id,
				providerIdentifier: post.channel.identifier,
				name: post.channel.name,
				picture: null,
			},
		}),
		'lowercase status, url, publishedAt, error, the channel by id (integration)': (post) => ({
			id: post.id,
			content: post.content,
			publishDate: new Date(post.dateMs).toISOString(),
			status: post.status,
			url: post.url ?? null,
			publishedAt: post.publishedMs ? new Date(post.publishedMs).toISOString() : null,
			error: post.error ?? null,
			integration: post.channel.id,
		}),
		'title-case status, permalink, text, date, the channel by id (channelId)': (post) => ({
			id: post.id,
			text: post.content,
			date: new Date(post.dateMs).toISOString(),
			status: post.status.charAt(0).toUpperCase() + post.status.slice(1),
			permalink: post.url ?? null,
			channelId: post.channel.id,
		}),
	} satisfies Record<string, PostRecord>,
};
