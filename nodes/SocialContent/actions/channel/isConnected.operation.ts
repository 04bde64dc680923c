import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';

export const description: INodeProperties[] = [];

/** GET /is-connected. Its answer is not in the spec: a bare boolean becomes `{ connected }`. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { method: 'GET', path: '/is-connected' }, itemIndex);
	if (response && typeof response === 'object' && !Array.isArray(response)) {
		const json = { ...(response as IDataObject) };
		json.connected ??= (json.isConnected ?? json.connected) as boolean | undefined;
		return [{ json }];
	}
	return [{ json: { connected: response === true || response === 'true' } }];
}
