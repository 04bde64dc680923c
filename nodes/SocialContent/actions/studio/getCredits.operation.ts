import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { asRecord } from '../../../shared/shapes';

export const description: INodeProperties[] = [];

/** GET /credits. The shape is not in the spec: a bare number becomes `{ credits }`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/credits' }, itemIndex);
	return [{ json: asRecord(response, 'credits') }];
}
