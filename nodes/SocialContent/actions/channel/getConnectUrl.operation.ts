import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { readConnectUrl } from '../../../shared/shapes';
import { requiredText } from '../fields/parameters';

const show = { resource: ['channel'], operation: ['getConnectUrl'] };

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName: 'Provider',
		name: 'provider',
		type: 'options',
		options: [
			{ name: 'Bluesky', value: 'bluesky' },
			{ name: 'Custom', value: 'custom' },
			{ name: 'Facebook', value: 'facebook' },
			{ name: 'Instagram', value: 'instagram' },
			{ name: 'LinkedIn', value: 'linkedin' },
			{ name: 'LinkedIn Page', value: 'linkedin-page' },
			{ name: 'Pinterest', value: 'pinterest' },
			{ name: 'Threads', value: 'threads' },
			{ name: 'TikTok', value: 'tiktok' },
			{ name: 'X (Twitter)', value: 'x' },
			{ name: 'YouTube', value: 'youtube' },
		],
		default: 'x',
		description: 'The network to connect. Choose Custom for one not in the list.',
	},
	{
		displayName: 'Custom Provider',
		name: 'customProvider',
		type: 'string',
		default: '',
		placeholder: 'e.g. mastodon',
		description:
			'The provider name as the service spells it in /social/:provider, for one not in the list',
		displayOptions: { show: { provider: ['custom'] } },
	},
]);

/** GET /social/:provider: a sign-in URL to open in a browser to connect a channel. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const chosen = this.getNodeParameter('provider', itemIndex) as string;
	const provider =
		chosen === 'custom'
			? requiredText(this, 'customProvider', 'Custom Provider', itemIndex)
			: chosen;
	const response = await apiRequest(
		run,
		{ method: 'GET', path: `/social/${encodeURIComponent(provider)}` },
		itemIndex,
	);
	return [{ json: { provider, ...readConnectUrl(response) } }];
}
