import type { INodeProperties } from 'n8n-workflow';

import type { RunContext } from './transport';
import { channelLabel, fetchChannels } from './channels';
import { shortDate } from './dates';
import { readPost, type Channel, type PostRecord } from './shapes';
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
/** A post's text in its picker label: enough to recognise it, within the dropdown's width. */
const POST_TEXT_CHARS = 32;

/**
 * Posts from 30 days back to 90 days ahead (GET /posts needs a range), labelled for a picker by
 * what tells them apart first, its text (the dropdown cuts a label at about 45 characters), then
 * channel and date: "Launch day is here · Acme · X · 15 Jan 2026 10:00 CET".
 */
export async function recentPosts(run: RunContext): Promise<Array<{ id: string; label: string }>> {
	const now = run.clock.now();
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
			const text = post.text.replace(/\s+/g, ' ').trim();
			const label = [
				text.length > POST_TEXT_CHARS
					? `${text.slice(0, POST_TEXT_CHARS - 1).trimEnd()}…`
					: text || '(no text)',
				channel?.name ? channelLabel(channel) : channel?.id,
				shortDate(post.date?.toISOString(), timeZone),
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

/** A post's channel: its record when the post carries one, else looked up by id (else the id alone). */
export function channelOfPost(
	post: PostRecord,
	channels: Channel[],
): Channel | { id: string; name?: undefined; identifier?: undefined } | undefined {
	if (post.channel === undefined || typeof post.channel === 'object') return post.channel;
	const id = post.channel;
	return channels.find((entry) => entry.id === id) ?? { id };
}
