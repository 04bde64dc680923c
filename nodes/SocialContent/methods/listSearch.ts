import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { RunContext } from '../transport';
import { channelLabel, fetchChannels } from '../actions/shared/channels';
import { fetchFormats, formatLabel } from '../actions/shared/formats';

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}

export async function searchChannels(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const channels = await fetchChannels(new RunContext(this));
	return {
		results: channels
			.filter((channel) => matches(filter, channel.name, channel.identifier, channel.id))
			.map((channel) => ({ name: channelLabel(channel), value: channel.id })),
	};
}

export async function searchFormats(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const formats = await fetchFormats(new RunContext(this));
	return {
		results: formats
			.filter((format) => matches(filter, format.name, format.id))
			.map((format) => ({ name: formatLabel(format), value: format.id })),
	};
}
