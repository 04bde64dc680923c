import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toUtcIso } from '../../../shared/dates';
import { normalisePost, toItems } from '../../../shared/shapes';

const show = { resource: ['post'], operation: ['list'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'List posts from this date',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'List posts up to this date',
	},
]);

/** GET /posts?startDate=&endDate= (ISO, UTC): one item per post, settings parsed from JSON strings. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const startDate = toUtcIso(
		this,
		this.getNodeParameter('startDate', itemIndex, ''),
		'Start Date',
		itemIndex,
	);
	const endDate = toUtcIso(
		this,
		this.getNodeParameter('endDate', itemIndex, ''),
		'End Date',
		itemIndex,
	);
	const response = await apiRequest(
		run,
		{ method: 'GET', path: '/posts', qs: { startDate, endDate } },
		itemIndex,
	);
	return toItems(response, ['posts']).map(({ json }) => ({ json: normalisePost(json) }));
}
