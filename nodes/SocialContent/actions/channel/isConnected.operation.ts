import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { asRecord } from '../../../shared/items';

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
	const json = { ...asRecord(response, 'connected') };
	const said = json.connected ?? json.isConnected;
	if (said === true || said === 'true') json.connected = true;
	else if (said === false || said === 'false') json.connected = false;
	return [{ json }];
}
