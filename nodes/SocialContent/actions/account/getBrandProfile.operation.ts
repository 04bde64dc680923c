import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { toItems } from '../items';

export const description: INodeProperties[] = [];

/** GET /brand: the brand profile, `{ found: false }` until the profile has been read. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { method: 'GET', path: '/brand' }, itemIndex);
	return toItems(response);
}
