import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { toItems } from '../items';
import { requiredText } from '../shared/parameters';
import { analyticsDateField, analyticsQuery } from './analyticsDate';

const show = { resource: ['channel'], operation: ['getPostAnalytics'] };

export const description: INodeProperties[] = [
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Post ID',
			name: 'postId',
			type: 'string',
			default: '',
			required: true,
			description: 'The postId returned by Create Post',
		},
	]),
	analyticsDateField(show),
];

/** GET /analytics/post/:postId?date=. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const postId = requiredText(this, 'postId', 'Post ID', itemIndex);
	const response = await apiRequest(run, { method: 'GET', path: `/analytics/post/${encodeURIComponent(postId)}`, qs: analyticsQuery(this, itemIndex) },
		itemIndex,
	);
	return toItems(response);
}
