import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';

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

/** POST /upload (multipart, field `file`): returns the media's `id` and `path` for posts. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const propertyName = (this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim();
	const item = this.getInputData()[itemIndex];
	if (!item.binary?.[propertyName]) {
		const present = Object.keys(item.binary ?? {});
		throw new NodeOperationError(this.getNode(), `The input item has no binary field "${propertyName}"`, {
			itemIndex,
			description: present.length
				? `Its binary fields are: ${present.join(', ')}. Set "Input Binary Field" to one of them.`
				: 'The input item has no binary data at all. Put a node that reads or downloads a file before this one.',
		});
	}
	const binary = this.helpers.assertBinaryData(itemIndex, propertyName);
	const content = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const form = new FormData();
	const fileName = binary.fileName ?? `${propertyName}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	form.append('file', new Blob([content as unknown as BlobPart], { type: binary.mimeType }), fileName);

	const response = await apiRequest.call(this, { method: 'POST', path: '/upload', body: form }, itemIndex);
	return [{ json: { ...(response as IDataObject) } }];
}
