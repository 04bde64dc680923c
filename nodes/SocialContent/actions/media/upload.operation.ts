import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { StreamedFile, StreamingForm } from '../../transport/multipart';

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

/** POST /upload (multipart, field `file`): returns the media's `id` and `path` for posts. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
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
	const form = new StreamingForm();
	form.append('file', await fileOf(this, itemIndex, propertyName));
	const response = await apiRequest(run, { method: 'POST', path: '/upload', body: form }, itemIndex);
	return [{ json: { ...(response as IDataObject) } }];
}

/** The file, streamed from n8n's binary data store when it is there (filesystem, S3), else from memory. */
async function fileOf(ctx: IExecuteFunctions, itemIndex: number, propertyName: string): Promise<StreamedFile> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const name = binary.fileName ?? `${propertyName}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const type = binary.mimeType || 'application/octet-stream';
	if (binary.id) {
		const binaryId = binary.id;
		const { fileSize } = await ctx.helpers.getBinaryMetadata(binaryId);
		return new StreamedFile(name, type, fileSize, async () => await ctx.helpers.getBinaryStream(binaryId));
	}
	const content = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return new StreamedFile(name, type, content.length, async () => [content]);
}
