import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { toItems } from '../items';

export const description: INodeProperties[] = [];

/** GET /agents/ping: proves the credential works and tells which organization it belongs to. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { method: 'GET', path: '/agents/ping' }, itemIndex);
	return toItems(response);
}
