import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';
import { channelLocator } from '../../../shared/channels';
import { locatorId } from '../fields/parameters';
import { analyticsPeriodField, analyticsQuery } from './analyticsPeriod';

const show = { resource: ['channel'], operation: ['getAnalytics'] };

export const description: INodeProperties[] = [
	channelLocator(show, 'The channel to read analytics for'),
	analyticsPeriodField(show),
];

/** GET /analytics/:integration?date=: one item per metric when the service sends a list. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'channel', 'channel', itemIndex);
	const response = await apiRequest(
		run,
		{
			method: 'GET',
			path: `/analytics/${encodeURIComponent(id)}`,
			qs: analyticsQuery(this, itemIndex),
			about: { kind: 'channel', id },
		},
		itemIndex,
	);
	return toItems(response);
}
