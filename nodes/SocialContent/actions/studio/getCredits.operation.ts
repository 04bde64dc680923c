import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { asRecord } from '../items';

export const description: INodeProperties[] = [];

/** GET /credits. The shape is not in the spec: a bare number becomes `{ credits }`. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { method: 'GET', path: '/credits' }, itemIndex);
	return [{ json: asRecord(response, 'credits') }];
}
