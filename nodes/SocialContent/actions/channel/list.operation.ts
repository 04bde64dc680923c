import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchChannels } from '../shared/channels';

export const description: INodeProperties[] = [];

/** GET /integrations: one item per connected channel, with `id`, `name` and `identifier`. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const channels = await fetchChannels(this, itemIndex);
	return channels.map(({ raw, id, name, identifier }) => ({ json: { ...raw, id, name, identifier } }));
}
