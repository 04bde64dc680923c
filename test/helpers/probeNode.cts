/**
 * A test-only node that sends one request through the package's transport, so transport
 * behaviour (POST, bodies, limits) can be driven through WorkflowExecute before every operation
 * that needs it exists. It uses the action node's own Authentication and Request Options fields.
 */
import type { IDataObject, IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runForEachItem } from '../../nodes/SocialContent/actions/router';
import { toItems } from '../../nodes/shared/shapes';
import { apiRequest, downloadFile, type RunContext } from '../../nodes/shared/transport';
// The node from the harness, which loads it by its .ts file (see there): this helper runs under tsx too.
import { SocialContent } from './harness.cjs';

/** Called when a download's first bytes reach the node (set by a test). */
export const downloadEvents: { onFirstBytes?: () => void } = {};

export const PROBE_NODE_TYPE = 'test.transportProbe';

const actionDescription = new SocialContent().description;

export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		...actionDescription,
		name: 'transportProbe',
		displayName: 'Transport Probe',
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			...actionDescription.properties,
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/agents/ping' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Download', name: 'download', type: 'boolean', default: false },
		],
	};

	async execute(this: IExecuteFunctions) {
		// The real item loop and error handling, around one request.
		return await runForEachItem.call(this, {
			execute: async function (this: IExecuteFunctions, itemIndex: number, run: RunContext) {
				const method = this.getNodeParameter('method', itemIndex) as 'GET';
				const path = this.getNodeParameter('path', itemIndex) as string;
				const rawBody = this.getNodeParameter('body', itemIndex, '') as string | IDataObject;
				const body =
					typeof rawBody === 'string' && rawBody ? (JSON.parse(rawBody) as IDataObject) : undefined;
				if (this.getNodeParameter('download', itemIndex, false)) {
					// Reads the file as the node's own operations hand it on: chunk by chunk.
					const file = await downloadFile(run, path, itemIndex);
					let bytes = 0;
					for await (const chunk of file.data as AsyncIterable<Buffer>) {
						if (bytes === 0) downloadEvents.onFirstBytes?.();
						bytes += chunk.length;
					}
					return [{ json: { bytes, mimeType: file.mimeType, fileName: file.fileName } }];
				}
				const response = await apiRequest(run, { method, path, body }, itemIndex);
				return toItems(response);
			},
		});
	}
}
