import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RunContext } from '../../../shared/transport';
import { assertBinaryField, uploadBinary } from '../../../shared/media';

const show = { resource: ['media'], operation: ['upload'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to be uploaded',
		description: 'Binary property of the input item that holds the file',
	},
]);

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /upload (multipart, field `file`, streamed): returns the media's `id` and `path` for posts. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const propertyName = (
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string
	).trim();
	assertBinaryField(this, propertyName, 'Input Binary Field', itemIndex);
	return [{ json: await uploadBinary(this, run, propertyName, itemIndex) }];
}
