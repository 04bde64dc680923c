import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { asRecord } from '../../../shared/shapes';
import { requiredText } from '../fields/parameters';
import { notPublicReason } from '../../../shared/publicAddress';
import { operationHint } from '../../../shared/hints';

const show = { resource: ['media'], operation: ['importFromUrl'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/picture.png',
		description:
			'Public http or https address of the file; the service fetches it into the media library. Addresses of this machine or a private network (localhost, 127.0.0.1, 10.x, 192.168.x …) are refused before sending: upload such files with Media → Upload.',
	},
]);

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /upload-from-url. The answer is not in the spec; it is passed on as it comes. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const url = requiredText(this, 'url', 'URL', itemIndex);
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
		throw new NodeOperationError(
			this.getNode(),
			`"URL" must be an http or https address, not "${url}"`,
			{
				itemIndex,
				description:
					'The service only imports public http(s) files. Give a full address such as https://example.com/picture.png.',
			},
		);
	}
	const notPublic = notPublicReason(parsed);
	if (notPublic) {
		throw new NodeOperationError(
			this.getNode(),
			`"URL" is not a public address: it points to ${notPublic}`,
			{
				itemIndex,
				description: `The service imports only public http(s) files and cannot reach this machine or a private network. Read the file with a node before this one (Read/Write Files from Disk, HTTP Request) and use ${operationHint('upload')} instead.`,
			},
		);
	}
	const response = await apiRequest(
		run,
		{ method: 'POST', path: '/upload-from-url', body: { url: parsed.toString() } },
		itemIndex,
	);
	return [{ json: asRecord(response, 'result') }];
}
