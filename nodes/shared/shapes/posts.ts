/**
 * A post record in a list. The spec: "Post | post creation returns one item per channel carrying
 * `postId` | Fields of the post record in lists: not shown."; "Responses of `GET /posts` …: not
 * shown." The real backend's list query (Postiz, posts.repository.ts getPosts) is one reading.
 */
import type { IDataObject } from 'n8n-workflow';

import { normaliseDates, parseDate } from '../dates';
import { withoutSecrets } from './secrets';
import { toChannel, type Channel } from './channels';

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

/** A post as Post → Get Many gives it: settings parsed when they come as JSON text, dates ISO with `Z`. */
export function normalisePost(post: IDataObject): IDataObject {
	const copy = { ...post };
	if (typeof copy.settings === 'string') {
		try {
			// Parsed after the answer was stripped of secrets: strip what the text held too.
			copy.settings = withoutSecrets(JSON.parse(copy.settings)) as IDataObject;
		} catch {
			// Not JSON after all: left as the service sent it.
		}
	}
	return normaliseDates(copy, ['publishDate', 'date', 'createdAt', 'updatedAt', 'publishedAt']);
}
