import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fetchChannels, networkName } from '../../../shared/channels';
import { simplifyProperty } from '../../../shared/simplify';
import type { RunContext } from '../../../shared/transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['list'] } },
	[simplifyProperty],
);

/**
 * GET /integrations: one item per connected channel. Simplified: `id`, `name`, `identifier` (the
 * network's id, what post settings are keyed by) and `network` (its name); else every field.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const channels = await fetchChannels(run, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return channels.map(({ raw, id, name, identifier }) => ({
		json: simplify
			? {
					id,
					name,
					identifier,
					network: networkName(identifier),
					...(raw.disabled !== undefined ? { disabled: raw.disabled } : {}),
				}
			: { ...raw, id, name, identifier },
	}));
}
