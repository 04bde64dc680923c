import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { readIsConnected } from '../../../shared/shapes';

export const description: INodeProperties[] = [];

/**
 * GET /is-connected. Its answer is not in the spec: a bare boolean becomes `{ connected }`, a yes
 * or no under `connected`/`isConnected` is read as one; any other answer is passed on as it came,
 * without a `connected` the service did not give.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/is-connected' }, itemIndex);
	return [{ json: readIsConnected(response) }];
}
