import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { asRecord } from '../../../shared/shapes';
import { channelLocator } from '../../../shared/channels';
import { normaliseDates } from '../../../shared/dates';
import { locatorId } from '../fields/parameters';

export const description: INodeProperties[] = [
	channelLocator(
		{ resource: ['post'], operation: ['findFreeSlot'] },
		'The channel to find the next free time for',
	),
];

/** GET /find-slot/:id. Not in the spec: a bare date becomes `{ date }`, as ISO with `Z`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'channel', 'channel', itemIndex);
	const response = await apiRequest(
		run,
		{ method: 'GET', path: `/find-slot/${encodeURIComponent(id)}`, about: { kind: 'channel', id } },
		itemIndex,
	);
	return [
		{
			json: {
				channelId: id,
				...normaliseDates(asRecord(response, 'date'), ['date', 'slot', 'time']),
			},
		},
	];
}
