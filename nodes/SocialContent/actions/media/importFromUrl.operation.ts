import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { asRecord } from '../items';
import { requiredText } from '../shared/parameters';

const show = { resource: ['media'], operation: ['importFromUrl'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/picture.png',
		description: 'Public http or https address of the file; the service fetches it into the media library',
	},
]);

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /upload-from-url. The answer is not in the spec; it is passed on as it comes. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const url = requiredText(this, 'url', 'URL', itemIndex);
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
		throw new NodeOperationError(this.getNode(), `"URL" must be an http or https address, not "${url}"`, {
			itemIndex,
			description: 'The service only imports public http(s) files. Give a full address such as https://example.com/picture.png.',
		});
	}
	const response = await apiRequest(run, { method: 'POST', path: '/upload-from-url', body: { url: parsed.toString() } },
		itemIndex,
	);
	return [{ json: asRecord(response, 'result') }];
}
