import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { RunContext } from './transport';
import { channelLabel, fetchChannels, toChannel, type Channel } from './channels';
import { normaliseDates, parseDate, shortDate } from './dates';
import { walkPages } from './paging';
import { picker } from './picker';

/** Post ID: a picker over recent and scheduled posts, or the ID (the postId Post → Create returns). */
export function postLocator(show: Record<string, string[]>, description: string): INodeProperties {
	return picker(
		{
			displayName: 'Post',
			name: 'postId',
			description: `${description}. The list shows posts from 30 days back to 90 days ahead; an ID is the postId that Post → Create returns, or the id from Post → Get Many.`,
			searchListMethod: 'searchPosts',
			placeholder: 'e.g. post_3k9d2',
		},
		show,
	);
}

const DAY_MS = 86_400_000;

/**
 * Posts from 30 days back to 90 days ahead (GET /posts needs a range), labelled for a picker:
 * "Acme · X · 15 Jan 2026 10:00 CET · Launch day…".
 */
export async function recentPosts(run: RunContext): Promise<Array<{ id: string; label: string }>> {
	const now = Date.now();
	const posts = await listPosts(run, { startMs: now - 30 * DAY_MS, endMs: now + 90 * DAY_MS }, 1);
	// One post on X and LinkedIn is two posts, told apart by their channel: read the channel list
	// only when a post names its channel by id alone.
	const channels = posts.some((post) => typeof post.channel === 'string')
		? await fetchChannels(run).catch(() => [])
		: [];
	const timeZone = run.n8n.getTimezone();
	return posts
		.map((post) => {
			const channel = channelOfPost(post, channels);
			const label = [
				channel?.name ? channelLabel(channel) : channel?.id,
				shortDate(post.date?.toISOString(), timeZone),
				post.text.length > 40 ? `${post.text.slice(0, 40)}…` : post.text || '(no text)',
			];
			return {
				id: post.id,
				label: label.filter(Boolean).join(' · '),
				when: post.date?.getTime() ?? 0,
			};
		})
		.sort((a, b) => a.when - b.when)
		.map(({ id, label }) => ({ id, label }));
}

/** GET /posts for a range, read into post records (entries without an id are left out). */
export async function listPosts(
	run: RunContext,
	range: { startMs: number; endMs: number },
	maxPages: number,
): Promise<PostRecord[]> {
	const qs = {
		startDate: new Date(range.startMs).toISOString(),
		endDate: new Date(range.endMs).toISOString(),
	};
	const posts: PostRecord[] = [];
	await walkPages(run, '/posts', { qs, listKeys: ['posts'], maxPages }, (page) => {
		for (const entry of page) {
			const post = readPost(entry);
			if (post) posts.push(post);
		}
		return true;
	});
	return posts;
}

/** Where a post stands: gone out, failed, or anything before that (queued, scheduled, draft). */
export type PostStatus = 'published' | 'failed' | 'waiting';

/**
 * A post record, read one way. The spec does not show its fields ("Responses of GET /posts …:
 * not shown"); the real backend lists `id`, `content`, `publishDate`, `state` (QUEUE, PUBLISHED,
 * ERROR, DRAFT), `releaseURL` and `integration` as an object. Other services may say `status`,
 * `url`, `date`, or name the channel by id: each is read under its likely names, in any case.
 */
export interface PostRecord {
	id: string;
	/** Undefined when the record carries no state at all. */
	status: PostStatus | undefined;
	/** When the post is (or was) due to go out. */
	date: Date | undefined;
	/** When it went out, where the service says so apart from its date. */
	publishedAt: Date | undefined;
	/** The post's public link on the network, once published. */
	url: string | undefined;
	/** Why it failed, where the service says. */
	error: string | undefined;
	text: string;
	/** The channel's record, or its id. */
	channel: Channel | string | undefined;
	raw: IDataObject;
}

const PUBLISHED_STATES = ['published', 'posted', 'sent', 'live', 'success', 'succeeded'];
const FAILED_STATES = ['error', 'failed', 'failure', 'rejected'];
const POST_DATE_FIELDS = ['publishDate', 'date', 'scheduledAt', 'publishAt', 'scheduledTime'];
const POST_URL_FIELDS = ['releaseURL', 'releaseUrl', 'url', 'permalink', 'link', 'postUrl'];
const POST_ERROR_FIELDS = ['error', 'errorMessage', 'failureReason', 'reason'];
/** Characters of a failure reason kept: enough to read, not a stack trace. */
const MAX_POST_ERROR_LENGTH = 500;

export function readPost(entry: unknown): PostRecord | undefined {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const raw = entry as IDataObject;
	const id = raw.id ?? raw.postId;
	if (id === undefined || id === null || id === '') return undefined;
	const stateText = [raw.state, raw.status].find(
		(value) => typeof value === 'string' && value.trim() !== '',
	) as string | undefined;
	const state = stateText?.trim().toLowerCase();
	const status: PostStatus | undefined =
		state === undefined
			? undefined
			: PUBLISHED_STATES.includes(state)
				? 'published'
				: FAILED_STATES.includes(state)
					? 'failed'
					: 'waiting';
	const first = (fields: string[]) =>
		fields
			.map((field) => raw[field])
			.find((value) => value !== undefined && value !== null && value !== '');
	const url = first(POST_URL_FIELDS);
	const error = first(POST_ERROR_FIELDS);
	const channel = raw.integration ?? raw.channel ?? raw.integrationId ?? raw.channelId;
	return {
		id: String(id),
		status,
		date: parseDate(first(POST_DATE_FIELDS), 'UTC'),
		publishedAt: parseDate(first(['publishedAt', 'releasedAt', 'postedAt']), 'UTC'),
		url: typeof url === 'string' ? url : undefined,
		error:
			error === undefined || typeof error === 'boolean'
				? undefined
				: (typeof error === 'string' ? error : JSON.stringify(error)).slice(
						0,
						MAX_POST_ERROR_LENGTH,
					),
		text: String(raw.content ?? raw.text ?? '')
			.replace(/\s+/g, ' ')
			.trim(),
		channel:
			channel && typeof channel === 'object'
				? toChannel(channel as IDataObject)
				: channel === undefined || channel === null
					? undefined
					: String(channel),
		raw,
	};
}

/** A post's channel: its record when the post carries one, else looked up by id (else the id alone). */
export function channelOfPost(
	post: PostRecord,
	channels: Channel[],
): Channel | { id: string; name?: undefined; identifier?: undefined } | undefined {
	if (post.channel === undefined || typeof post.channel === 'object') return post.channel;
	const id = post.channel;
	return channels.find((entry) => entry.id === id) ?? { id };
}

/** A post as Post → Get Many gives it: settings parsed when they come as JSON text, dates ISO with `Z`. */
export function normalisePost(post: IDataObject): IDataObject {
	const copy = { ...post };
	if (typeof copy.settings === 'string') {
		try {
			copy.settings = JSON.parse(copy.settings) as IDataObject;
		} catch {
			// Not JSON after all: left as the service sent it.
		}
	}
	return normaliseDates(copy, ['publishDate', 'date', 'createdAt', 'updatedAt', 'publishedAt']);
}
