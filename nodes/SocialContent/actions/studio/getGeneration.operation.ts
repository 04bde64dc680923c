import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { generationItem, generationLocator, getGeneration } from '../../../shared/generations';
import { locatorId } from '../fields/parameters';
import { simplifyProperty } from '../../../shared/simplify';
import type { RunContext } from '../../../shared/transport';

const show = { resource: ['studio'], operation: ['getGeneration'] };

export const description: INodeProperties[] = [
	generationLocator(show),
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Download Outputs',
			name: 'downloadOutputs',
			type: 'boolean',
			default: false,
			description:
				'Whether to attach the outputs as binary data (output_0, output_1, …) when the generation is done',
		},
		simplifyProperty,
	]),
];

/** GET /studio/generations/:id: status and outputs. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const id = locatorId(this, 'generationId', 'generation', itemIndex);
	const generation = await getGeneration(run, id, itemIndex, true);
	const download =
		(this.getNodeParameter('downloadOutputs', itemIndex, false) as boolean) &&
		generation.status === 'done';
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return [await generationItem(this, run, generation, { download, simplify }, itemIndex)];
}
