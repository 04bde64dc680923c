import type { IDataObject } from 'n8n-workflow';

import { clockNow } from './clock.cjs';
import { API_PATH, APP_URL, api } from './fixtures.cjs';
import { POST_RECORD_SHAPES } from './shapeGuesses.cjs';

export const POSTS_PATH = `${API_PATH}/posts`;

/**
 * How the service answers `GET /posts`. The spec shows none of the post record ("Responses of
 * GET /posts …: not shown"), so the trigger runs against each plausible answer (the records'
 * forms are in shapeGuesses.ts, POST_RECORD_SHAPES):
 * - 'spec': `{ posts }`, a lowercase `status`, `url`, `publishedAt`, a failure `error`, the
 *   channel by id (`integration: "ch_x"`);
 * - 'postiz': the real backend's list query: `{ posts }`, `state` (QUEUE, PUBLISHED, ERROR,
 *   DRAFT), `releaseURL`, the channel as an object, no failure reason, no creation time;
 * - 'bare': a bare array, `status` in title case, `permalink`, the channel under `channelId`.
 */
export type PostShape = 'spec' | 'postiz' | 'bare';

const RECORD_SHAPE: Record<PostShape, keyof typeof POST_RECORD_SHAPES.shapes> = {
	spec: 'lowercase status, url, publishedAt, error, the channel by id (integration)',
	postiz: 'the real backend: state QUEUE/PUBLISHED/ERROR/DRAFT, releaseURL, integration object',
	bare: 'title-case status, permalink, text, date, the channel by id (channelId)',
};

interface Post {
	id: string;
	channel: string;
	dateMs: number;
	status: 'scheduled' | 'draft' | 'published' | 'failed';
	content: string;
	url?: string;
	error?: string;
	publishedMs?: number;
}

const CHANNELS = [
	{ id: 'ch_x', name: 'Acme on X', identifier: 'x' },
	{ id: 'ch_linkedin', name: 'Acme on LinkedIn', identifier: 'linkedin' },
];

/** A stand-in for the service's posts: a list by date range, posts going out or failing. */
export class PostService {
	private posts = new Map<string, Post>();
	requests: string[] = [];
	/** The next list reads fail with this status. */
	listFailures = 0;
	/** The next list reads answer these (a 200 with no list in it, say) instead of the list. */
	listAnswers: Array<[number, unknown]> = [];
	/** "id|outcome" of every post that went out or failed since `startCounting()`. */
	outcomesSinceStart = new Set<string>();
	private counting = false;
	/** Called when a read is answered with the list of this date range (the model marks what it shows). */
	onListed?: (startMs: number, endMs: number) => void;

	constructor(public shape: PostShape) {}

	startCounting(): void {
		this.counting = true;
	}

	/** A post due at `dateMs` (default: now), waiting. */
	schedule(
		id: string,
		options: { channel?: string; dateMs?: number; draft?: boolean; content?: string } = {},
	): void {
		this.posts.set(id, {
			id,
			channel: options.channel ?? 'ch_x',
			dateMs: options.dateMs ?? clockNow(),
			status: options.draft ? 'draft' : 'scheduled',
			content: options.content ?? `Post ${id}`,
		});
	}

	/** It goes out (with its public link) or fails (with a reason). */
	send(id: string, outcome: 'published' | 'failed' = 'published'): void {
		const post = this.find(id);
		post.status = outcome;
		post.publishedMs = outcome === 'published' ? clockNow() : undefined;
		post.url = outcome === 'published' ? `https://x.example.com/acme/status/${id}` : undefined;
		post.error =
			outcome === 'failed' ? 'The network refused the post: duplicate content' : undefined;
		if (this.counting) this.outcomesSinceStart.add(`${id}|${outcome}`);
	}

	/** Created with a date of now and sent at once, between two polls: never seen waiting. */
	sendNow(id: string, outcome: 'published' | 'failed' = 'published', channel = 'ch_x'): void {
		this.schedule(id, { channel });
		this.send(id, outcome);
	}

	/** Many that went out long ago (before any trigger), spread over the last `days` days. */
	sentLongAgo(prefix: string, count: number, days = 60): string[] {
		const now = clockNow();
		return Array.from({ length: count }, (_, index) => {
			const id = `${prefix}${index}`;
			this.posts.set(id, {
				id,
				channel: CHANNELS[index % 2].id,
				dateMs: now - ((index + 1) / count) * days * 86_400_000,
				status: index % 7 === 3 ? 'failed' : 'published',
				content: `Old ${id}`,
				url: `https://x.example.com/acme/status/${id}`,
			});
			return id;
		});
	}

	remove(id: string): void {
		this.posts.delete(id);
	}

	edit(id: string, content: string): void {
		this.find(id).content = content;
	}

	move(id: string, dateMs: number): void {
		this.find(id).dateMs = dateMs;
	}

	/** Queued again (rescheduled after a failure): its next outcome is a new one. */
	requeue(id: string, dateMs = clockNow()): void {
		Object.assign(this.find(id), {
			status: 'scheduled',
			dateMs,
			url: undefined,
			error: undefined,
			publishedMs: undefined,
		});
	}

	private find(id: string): Post {
		const post = this.posts.get(id);
		if (!post) throw new Error(`no post ${id}`);
		return post;
	}

	private record(post: Post): IDataObject {
		const channel = CHANNELS.find((entry) => entry.id === post.channel)!;
		return POST_RECORD_SHAPES.shapes[RECORD_SHAPE[this.shape]]({ ...post, channel });
	}

	/** nock interceptors for the list and the channel list. */
	serve(): void {
		api()
			.get(POSTS_PATH)
			.query(true)
			.reply((uri) => {
				this.requests.push(uri);
				if (this.listFailures > 0) {
					this.listFailures--;
					return [500, { msg: 'down' }];
				}
				const answer = this.listAnswers.shift();
				if (answer) return answer;
				const query = new URL(uri, APP_URL).searchParams;
				const start = Date.parse(query.get('startDate') ?? '');
				const end = Date.parse(query.get('endDate') ?? '');
				if (Number.isNaN(start) || Number.isNaN(end))
					return [400, { msg: 'startDate and endDate are required' }];
				const rows = [...this.posts.values()]
					.filter((post) => post.dateMs >= start && post.dateMs <= end)
					.map((post) => this.record(post));
				this.onListed?.(start, end);
				return [200, this.shape === 'bare' ? rows : { posts: rows }];
			})
			.persist();
		api()
			.get(`${API_PATH}/integrations`)
			.reply(() => {
				this.requests.push('/integrations');
				return [200, CHANNELS];
			})
			.persist();
	}

	/** List reads made so far. */
	get listReads(): number {
		return this.requests.filter((uri) => uri.startsWith(POSTS_PATH)).length;
	}
}
