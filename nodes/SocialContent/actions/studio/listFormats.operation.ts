import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fetchFormats } from '../../../shared/formats';
import { simplifyProperty } from '../../../shared/simplify';
import type { RunContext } from '../../../shared/transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['studio'], operation: ['listFormats'] } },
	[simplifyProperty],
);

/**
 * GET /studio/formats: one item per format. Simplified: `id`, `name`, `price` (credits) and
 * `inputs` read into fields (name, label, required, type); else every field the service sent.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const formats = await fetchFormats(run, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return formats.map(({ raw, id, name, price, inputs, inputFields }) => ({
		json: simplify
			? { id, name, price: price ?? null, inputs: inputFields as unknown as IDataObject[] }
			: { ...raw, id, name, price: price ?? null, inputs: (inputs ?? null) as IDataObject },
	}));
}
