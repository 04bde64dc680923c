import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchFormats } from '../shared/formats';
import type { RunContext } from '../../transport';

export const description: INodeProperties[] = [];

/** GET /studio/formats: one item per format, with `id`, `name` and `price` (credits) always set. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const formats = await fetchFormats(run, itemIndex);
	return formats.map(({ raw, id, name, price, inputs }) => ({
		json: { ...raw, id, name, price: price ?? null, inputs: (inputs ?? null) as IDataObject },
	}));
}
