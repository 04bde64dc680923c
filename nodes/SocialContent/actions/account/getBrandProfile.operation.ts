import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';

export const description: INodeProperties[] = [];

/** GET /brand: the brand profile, `{ found: false }` until the profile has been read. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest(run, { method: 'GET', path: '/brand' }, itemIndex);
	return toItems(response);
}
