import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { RunContext } from '../../transport';
import { shortDate } from './dates';
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
	return list
		.filter((post) => post && typeof post === 'object' && (post.id ?? post.postId) !== undefined)
		.map((post) => {
			const text = String(post.content ?? post.text ?? '').replace(/\s+/g, ' ').trim();
			const when = shortDate(post.publishDate ?? post.date ?? post.createdAt);
			const parts = [text.length > 40 ? `${text.slice(0, 40)}…` : text || '(no text)', when].filter(Boolean);
			return { id: String(post.id ?? post.postId), label: parts.join(' · '), when: when ?? '' };
		})
		.sort((a, b) => a.when.localeCompare(b.when))
		.map(({ id, label }) => ({ id, label }));
}
