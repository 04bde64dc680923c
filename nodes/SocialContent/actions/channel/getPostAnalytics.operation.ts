import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';
import { locatorId } from '../fields/parameters';
import { postLocator } from '../../../shared/posts';
import { analyticsPeriodField, analyticsQuery } from './analyticsPeriod';

const show = { resource: ['channel'], operation: ['getPostAnalytics'] };

export const description: INodeProperties[] = [
	postLocator(show, 'The post to read analytics for'),
	analyticsPeriodField(show),
];

/** GET /analytics/post/:postId?date=. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const postId = locatorId(this, 'postId', 'post', itemIndex);
	const response = await apiRequest(
		run,
		{
			method: 'GET',
			path: `/analytics/post/${encodeURIComponent(postId)}`,
			qs: analyticsQuery(this, itemIndex),
			about: { kind: 'post', id: postId },
		},
		itemIndex,
	);
	return toItems(response);
}
