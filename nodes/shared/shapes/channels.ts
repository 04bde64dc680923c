/**
 * A channel (integration). The spec: "`id`, `name`, `identifier`, and further fields | Further
 * fields: not shown." The real backend names the network `providerIdentifier` inside a post.
 */
import type { IDataObject } from 'n8n-workflow';

/** Keys the channel list may be wrapped under (besides the common ones, see lists.ts). */
export const CHANNEL_LIST_KEYS = ['integrations', 'channels'];

export interface Channel {
	id: string;
	name: string;
	identifier: string;
	raw: IDataObject;
}

/** A channel record as the service gives it (in the list, or inside a post), read the one way. */
export function toChannel(entry: IDataObject): Channel {
	return {
		id: String(entry.id ?? ''),
		name: String(entry.name ?? entry.id ?? ''),
		identifier: String(entry.identifier ?? entry.providerIdentifier ?? ''),
		raw: entry,
	};
}
