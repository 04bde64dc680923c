import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { generationItem, getGeneration } from '../shared/generations';
import { requiredText } from '../shared/parameters';
import type { RunContext } from '../../transport';

const show = { resource: ['studio'], operation: ['getGeneration'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Generation ID',
		name: 'generationId',
		type: 'string',
		default: '',
		required: true,
		description: 'The ID returned by Start Generation',
	},
	{
		displayName: 'Download Outputs',
		name: 'downloadOutputs',
		type: 'boolean',
		default: false,
		description: 'Whether to attach the outputs as binary data (output_0, output_1, …) when the generation is done',
	},
]);

/** GET /studio/generations/:id: status and outputs. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const id = requiredText(this, 'generationId', 'Generation ID', itemIndex);
	const generation = await getGeneration(run, id, itemIndex);
	const download = (this.getNodeParameter('downloadOutputs', itemIndex, false) as boolean) && generation.status === 'done';
	return [await generationItem(this, run, generation, download, itemIndex)];
}
