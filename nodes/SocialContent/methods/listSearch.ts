import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { RunContext } from '../../shared/transport';
import { channelLabel, fetchChannels } from '../../shared/channels';
import { fetchFormats, formatInputsSummary, formatLabel } from '../../shared/formats';
import { recentGenerations } from '../../shared/generations';
import { recentPosts } from '../../shared/posts';

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}

export async function searchChannels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const channels = await fetchChannels(new RunContext(this));
	return {
		results: channels
			.filter((channel) => matches(filter, channel.name, channel.identifier, channel.id))
			.map((channel) => ({ name: channelLabel(channel), value: channel.id })),
	};
}

export async function searchFormats(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const formats = await fetchFormats(new RunContext(this));
	return {
		results: formats
			.filter((format) => matches(filter, format.name, format.id))
			.map((format) => {
				const summary = formatInputsSummary(format);
				return {
					name: formatLabel(format),
					value: format.id,
					...(summary ? { description: summary } : {}),
				};
			}),
	};
}

/** The latest generations (first page of the list), newest first: "image_fast · done · 2026-11-22 12:03". */
export async function searchGenerations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const generations = await recentGenerations(new RunContext(this));
	return {
		results: generations
			.filter((generation) => matches(filter, generation.label, generation.id))
			.map((generation) => ({ name: generation.label, value: generation.id })),
	};
}

/** Posts from 30 days back to 90 days ahead, soonest first: "Text… · 2026-11-22 12:03". */
export async function searchPosts(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const posts = await recentPosts(new RunContext(this));
	return {
		results: posts
			.filter((post) => matches(filter, post.label, post.id))
			.map((post) => ({ name: post.label, value: post.id })),
	};
}
