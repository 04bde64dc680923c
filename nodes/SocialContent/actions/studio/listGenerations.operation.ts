import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { normaliseGeneration } from '../../../shared/shapes';
import { simplifyGeneration, simplifyProperty } from '../../../shared/simplify';
import { pagingFields, readList } from '../../../shared/paging';
import type { RunContext } from '../../../shared/transport';

const show = { resource: ['studio'], operation: ['listGenerations'] };

export const description: INodeProperties[] = [
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Any', value: '' },
				{ name: 'Done', value: 'done' },
				{ name: 'Failed', value: 'failed' },
				{ name: 'Queued', value: 'queued' },
				{ name: 'Running', value: 'running' },
			],
			default: '',
			description: 'Only generations with this status',
		},
	]),
	...pagingFields(show),
	...updateDisplayOptions({ show }, [simplifyProperty]),
];

/** GET /studio/generations?status=: one item per generation. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const status = this.getNodeParameter('status', itemIndex, '') as string;
	const list = await readList(this, run, '/studio/generations', itemIndex, {
		qs: status ? { status } : undefined,
		listKeys: ['generations'],
	});
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return list.map((generation) => {
		const normalised = normaliseGeneration(generation);
		return { json: simplify ? simplifyGeneration(normalised) : normalised };
	});
}
