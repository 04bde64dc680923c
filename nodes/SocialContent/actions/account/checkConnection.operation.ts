import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';

export const description: INodeProperties[] = [];

/** GET /agents/ping: proves the credential works and tells which organization it belongs to. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/agents/ping' }, itemIndex);
	return toItems(response);
}
