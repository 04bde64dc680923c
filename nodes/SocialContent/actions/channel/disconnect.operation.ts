import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { channelLocator } from '../../../shared/channels';
import { locatorId } from '../fields/parameters';

export const description: INodeProperties[] = [
	channelLocator({ resource: ['channel'], operation: ['disconnect'] }, 'The channel to disconnect'),
];

/**
 * DELETE /integrations/:id. The answer is not in the spec (the real backend answers the whole
 * channel record): the output says what happened in our words and copies nothing of it.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'channel', 'channel', itemIndex);
	await apiRequest(
		run,
		{
			method: 'DELETE',
			path: `/integrations/${encodeURIComponent(id)}`,
			about: { kind: 'channel', id },
		},
		itemIndex,
	);
	return [{ json: { id, disconnected: true } }];
}
