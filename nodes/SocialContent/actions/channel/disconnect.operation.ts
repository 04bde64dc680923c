import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { asRecord } from '../items';
import { channelLocator } from '../shared/channels';
import { locatorId } from '../shared/parameters';

export const description: INodeProperties[] = [
	channelLocator({ resource: ['channel'], operation: ['disconnect'] }, 'The channel to disconnect'),
];

/** DELETE /integrations/:id. The answer is not in the spec: the output confirms the id. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'channel', 'channel', itemIndex);
	const response = await apiRequest(run, { method: 'DELETE', path: `/integrations/${encodeURIComponent(id)}` },
		itemIndex,
	);
	return [{ json: { ...asRecord(response, 'result'), id, disconnected: true } }];
}
