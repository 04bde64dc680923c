import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { asRecord } from '../items';

export const description: INodeProperties[] = [];

/** GET /is-connected. Its answer is not in the spec: a bare boolean becomes `{ connected }`. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/is-connected' }, itemIndex);
	const json = { ...asRecord(response, 'connected') };
	json.connected = json.connected === true || json.connected === 'true' || json.isConnected === true;
	return [{ json }];
}
