import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { fetchChannels } from '../shared/channels';
import { channelOfPost, listPosts } from '../shared/posts';
import { normalisePost, type Channel, type PostRecord, type PostStatus } from '../shared/shapes';
import type { RunContext } from '../shared/transport';
import { openFamily, type FamilyPoll } from './pollStore';
import {
	baselinePosts,
	decidePosts,
	isPostState,
	postTimeMs,
	postWindow,
	type PostEventState,
} from './postState';

type PollRun = RunContext<IPollFunctions>;

export interface PostTriggerOptions {
	/** Outcomes that fire: `published`, `failed`. */
	statuses: PostStatus[];
	/** Channel ids that fire; empty means all. */
	channels: string[];
	simplify: boolean;
}

/** Pages read when a service pages its post list (the spec does not say it does). */
const MAX_POST_PAGES = 20;
const DAY_MS = 86_400_000;

/**
 * One poll of posts: one read of the date range (postState.ts), what went out or failed since,
 * oldest first; `commit` saves the state once every part of the poll has succeeded.
 */
export async function pollPosts(
	run: PollRun,
	options: PostTriggerOptions,
	activation: boolean,
): Promise<FamilyPoll> {
	const family = await openFamily(run, 'posts', activation, { isCurrent: isPostState });
	const state = family.state;
	const readAtMs = run.clock.now();
	const posts = await listPosts(run, postWindow(state, readAtMs), MAX_POST_PAGES);
	let next: PostEventState | undefined;
	let fired: PostRecord[] = [];
	if (!state) {
		// First activation: what already went out or failed is the baseline, not an event.
		next = baselinePosts(posts, readAtMs);
	} else if (posts.length > 0) {
		({ fired, next } = decidePosts(state, posts, readAtMs));
	}
	const items = await postItems(
		run,
		fired.filter((post) => matchesPost(post, options)),
		options,
	);
	return { items, commit: family.commitOf(next) };
}

/** Fetch Test Event: the latest post of the last 30 days with a chosen outcome and channel; no state. */
export async function latestPost(
	run: PollRun,
	options: PostTriggerOptions,
): Promise<INodeExecutionData | undefined> {
	const now = run.clock.now();
	const posts = await listPosts(run, { startMs: now - 30 * DAY_MS, endMs: now + DAY_MS }, 1);
	const latest = posts
		.filter((post) => matchesPost(post, options))
		.sort((a, b) => postTimeMs(b) - postTimeMs(a))[0];
	return latest ? (await postItems(run, [latest], options))[0] : undefined;
}

/** The one filter of both: a chosen outcome, on a chosen channel. */
function matchesPost(post: PostRecord, options: PostTriggerOptions): boolean {
	if (!post.status || !options.statuses.includes(post.status)) return false;
	if (!options.channels.length) return true;
	const channel = post.channel;
	return options.channels.includes(
		typeof channel === 'object' ? channel.id : String(channel ?? ''),
	);
}

async function postItems(
	run: PollRun,
	posts: PostRecord[],
	options: PostTriggerOptions,
): Promise<INodeExecutionData[]> {
	if (!posts.length) return [];
	// A post that names its channel by id alone gets its name and network from the channel list,
	// read only then. If that read fails the post still comes out, with the channel's id.
	let channels: Channel[] = [];
	if (posts.some((post) => typeof post.channel === 'string')) {
		channels = await fetchChannels(run).catch((error: Error) => {
			run.n8n.logger.warn(
				`Social Content Trigger: could not read the channel list; posts come out with their channel's id only: ${error.message}`,
			);
			return [];
		});
	}
	return posts.map((post) => ({
		json: options.simplify ? simplifyPost(post, channels) : normalisePost(post.raw),
	}));
}

/** One post as the trigger gives it: its outcome, channel, dates, public link and failure reason. */
function simplifyPost(post: PostRecord, channels: Channel[]): INodeExecutionData['json'] {
	const channel = channelOfPost(post, channels);
	return {
		id: post.id,
		state: post.status ?? null,
		channel: channel
			? { id: channel.id, name: channel.name ?? null, network: channel.identifier || null }
			: null,
		date: post.date?.toISOString() ?? null,
		publishedAt:
			post.status === 'published' ? ((post.publishedAt ?? post.date)?.toISOString() ?? null) : null,
		url: post.url ?? null,
		error: post.status === 'failed' ? (post.error ?? null) : null,
		text: post.text,
	};
}
