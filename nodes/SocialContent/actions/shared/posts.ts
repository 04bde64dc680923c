import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { RunContext } from '../../transport';
import { channelLabel, fetchChannels, toChannel, type Channel } from './channels';
import { parseDate, shortDate } from './dates';
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
 * Posts from 30 days back to 90 days ahead (GET /posts needs a range), labelled for a picker. A
 * post record's fields are not in the spec: the text, date and id are read under their likely names.
 */
export async function recentPosts(run: RunContext): Promise<Array<{ id: string; label: string }>> {
	const now = Date.now();
	const qs = { startDate: new Date(now - 30 * DAY_MS).toISOString(), endDate: new Date(now + 90 * DAY_MS).toISOString() };
	const list: IDataObject[] = [];
	await walkPages(run, '/posts', { qs, listKeys: ['posts'], maxPages: 1 }, (page) => {
		list.push(...(page as IDataObject[]));
		return false;
	});
	const posts = list.filter((post) => post && typeof post === 'object' && (post.id ?? post.postId) !== undefined);
	// A post names its channel by id (or as an object with its name): one post on X and LinkedIn
	// is two posts, told apart by their channel. The channel list is read only when needed.
	const needsChannels = posts.some((post) => typeof post.integration === 'string' || typeof post.integrationId === 'string');
	const channels = needsChannels ? await fetchChannels(run).catch(() => []) : [];
	const timeZone = run.n8n.getTimezone();
	return posts
		.map((post) => {
			const text = String(post.content ?? post.text ?? '').replace(/\s+/g, ' ').trim();
			const date = parseDate(post.publishDate ?? post.date ?? post.createdAt, 'UTC');
			const parts = [channelOf(post, channels), shortDate(date?.toISOString(), timeZone), text.length > 40 ? `${text.slice(0, 40)}…` : text || '(no text)'];
			return { id: String(post.id ?? post.postId), label: parts.filter(Boolean).join(' · '), when: date?.getTime() ?? 0 };
		})
		.sort((a, b) => a.when - b.when)
		.map(({ id, label }) => ({ id, label }));
}

/** "Acme · X" for a post's channel: its record when the post carries one, else looked up by id. */
function channelOf(post: IDataObject, channels: Channel[]): string | undefined {
	const integration = post.integration;
	if (integration && typeof integration === 'object') return channelLabel(toChannel(integration as IDataObject));
	const id = String(integration ?? post.integrationId ?? '');
	const channel = channels.find((entry) => entry.id === id);
	return channel ? channelLabel(channel) : id || undefined;
}
