/**
 * Answers the spec leaves open, and the forms of each that this package accepts. Everything here
 * is a guess, not the spec: each group quotes the spec's "not shown" it stands for. Tests that feed
 * the node such an answer take its shape from here, so a reader can tell contract from assumption.
 * The node's side of every guess is nodes/shared/shapes/ (one module per kind of answer), and
 * test/unit/shapeGuesses.test.cts drives each group here through the node.
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

/** What a finished generation is, in the forms its record may take. */
export interface GenerationFacts {
	id: string;
	format: string;
	/** Where its one output is. */
	path: string;
	finishedMs: number;
}

type GenerationRecord = (generation: GenerationFacts) => unknown;

/** A generation record, as GET /studio/generations/:id (or the list) may give it. */
export const GENERATION_SHAPES = {
	spec: [
		'"Generation | `id`, `status`, `credits` (returned on start); `status` and outputs (returned on read) | Shape of outputs beyond being media library files: not shown."',
		'"Generation `status` takes the values `queued`, `running`, `done`, `failed`. Transitions: not shown."',
	],
	shapes: {
		'the spec names: outputs of { path }, finishedAt as ISO text': (generation) => ({
			id: generation.id,
			status: 'done',
			format: generation.format,
			outputs: [{ id: 'med_1', path: generation.path }],
			finishedAt: new Date(generation.finishedMs).toISOString(),
		}),
		'wrapped in { generation }, status in capitals, formatId, output as bare paths, completedAt in seconds':
			(generation) => ({
				generation: {
					id: generation.id,
					status: 'DONE',
					formatId: generation.format,
					output: [generation.path],
					completedAt: generation.finishedMs / 1000,
				},
			}),
		'files of { url }, doneAt in milliseconds': (generation) => ({
			id: generation.id,
			status: 'done',
			format: generation.format,
			files: [{ url: generation.path }],
			doneAt: generation.finishedMs,
		}),
	} satisfies Record<string, GenerationRecord>,
};

/** A channel in GET /integrations: how it names its network. */
export const CHANNEL_SHAPES = {
	spec: [
		'"Channel (integration) | `id`, `name`, `identifier`, and further fields | Further fields: not shown."',
	],
	shapes: {
		'the spec names: identifier': { id: 'ch_x', name: 'Acme', identifier: 'x' },
		'providerIdentifier (the real backend, inside a post)': {
			id: 'ch_x',
			name: 'Acme',
			providerIdentifier: 'x',
			picture: null,
		},
	} as Record<string, IDataObject>,
};

/** Answers of one value, each in the forms it may take (all meaning the same). */
export const ANSWER_SHAPES = {
	connectUrl: {
		spec: '"Response of `GET /social/:provider` beyond a sign-in URL, and the set of provider values: not shown."',
		means: 'https://x.com/oauth?state=1',
		shapes: {
			'{ url }': { url: 'https://x.com/oauth?state=1' },
			'{ signInUrl }': { signInUrl: 'https://x.com/oauth?state=1' },
			'{ authUrl }': { authUrl: 'https://x.com/oauth?state=1' },
			'a bare string': 'https://x.com/oauth?state=1',
		} as Record<string, unknown>,
	},
	isConnected: {
		spec: '"Response of `GET /is-connected`: not shown."',
		means: true,
		shapes: {
			'{ connected: true }': { connected: true },
			'a bare true': true,
			'{ isConnected: "true" }': { isConnected: 'true' },
		} as Record<string, unknown>,
	},
	credits: {
		spec: '"Credits | the endpoint returns credits left | Shape of the response: not shown."',
		means: 42,
		shapes: {
			'{ credits: 42 }': { credits: 42 },
			'a bare 42': 42,
		} as Record<string, unknown>,
	},
	hooks: {
		spec: '"Score result … Types and inner shape of each of these: not shown." (and the generated hooks\' shape: not shown)',
		means: ['Stop scrolling.', 'Read this first.'],
		shapes: {
			'a list of texts': ['Stop scrolling.', 'Read this first.'],
			'{ hooks: [{ hook }] }': {
				hooks: [{ hook: 'Stop scrolling.' }, { hook: 'Read this first.' }],
			},
			'{ data: [{ hook }] }': { data: [{ hook: 'Stop scrolling.' }, { hook: 'Read this first.' }] },
		} as Record<string, unknown>,
	},
};

/** A 400's body: `{ msg }` or "the field errors" (their shape: not shown). */
export const ERROR_SHAPES = {
	spec: ['"400 | Validation failed | `{ msg }` or the field errors"'],
	/** Each shape says the same two things. */
	means: ['text: must not be empty', 'count: must be at most 10'],
	shapes: {
		'{ errors: [{ field, message }] }': {
			errors: [
				{ field: 'text', message: 'must not be empty' },
				{ field: 'count', message: 'must be at most 10' },
			],
		},
		'{ errors: { field: messages } }': {
			errors: { text: ['must not be empty'], count: 'must be at most 10' },
		},
		'NestJS (the real backend): { message: [...], error, statusCode }': {
			message: ['text: must not be empty', 'count: must be at most 10'],
			error: 'Bad Request',
			statusCode: 400,
		},
		'{ fieldErrors: [{ property, msg }] }': {
			fieldErrors: [
				{ property: 'text', msg: 'must not be empty' },
				{ property: 'count', msg: 'must be at most 10' },
			],
		},
	} as Record<string, unknown>,
};
