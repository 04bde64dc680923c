import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchChannels } from '../shared/channels';
import type { RunContext } from '../../transport';

export const description: INodeProperties[] = [];

/** GET /integrations: one item per connected channel, with `id`, `name` and `identifier`. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const channels = await fetchChannels(run, itemIndex);
	return channels.map(({ raw, id, name, identifier }) => ({ json: { ...raw, id, name, identifier } }));
}
