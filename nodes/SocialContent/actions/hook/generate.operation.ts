import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { readHooks } from '../../../shared/shapes';
import { platformFields, platformValue } from '../fields/platform';

const show = { resource: ['hook'], operation: ['generate'] };

export const description: INodeProperties[] = [
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Topic',
			name: 'topic',
			type: 'string',
			default: '',
			placeholder: 'e.g. morning routines for founders',
			description: 'What the hooks are about (optional: without it, the brand profile guides them)',
		},
		{
			displayName: 'Audience ID',
			name: 'audienceId',
			type: 'string',
			default: '',
			description: "Write for one of the brand profile's audiences (optional)",
		},
	]),
	...platformFields(show),
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Count',
			name: 'count',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'How many hooks to generate; 0 leaves it to the service',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'One Item per Hook', value: 'perHook' },
				{ name: 'All Hooks in One Item', value: 'oneItem' },
			],
			default: 'perHook',
			description:
				'One output item per generated hook (to score or post each), or all of them in one item under hooks',
		},
	]),
];

/** POST /hooks/generate. Hooks come out one per item, or together in one item under `hooks`. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const body: IDataObject = {};
	const topic = (this.getNodeParameter('topic', itemIndex, '') as string).trim();
	if (topic) body.topic = topic;
	const audienceId = (this.getNodeParameter('audienceId', itemIndex, '') as string).trim();
	if (audienceId) body.audienceId = audienceId;
	const platform = platformValue(this, itemIndex);
	if (platform) body.platform = platform;
	const countValue = this.getNodeParameter('count', itemIndex, 0) as unknown;
	// An expression may give the count as text: "3" is fine, "three" is not.
	const count =
		typeof countValue === 'string' && countValue.trim() !== '' ? Number(countValue) : countValue;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
		throw new NodeOperationError(
			this.getNode(),
			`"Count" must be a whole number of 0 or more, not ${JSON.stringify(countValue)}`,
			{
				itemIndex,
				description: 'Enter how many hooks to generate, or 0 to leave it to the service.',
			},
		);
	}
	if (count > 0) body.count = count;

	const response = await apiRequest(
		run,
		{ method: 'POST', path: '/hooks/generate', body },
		itemIndex,
	);
	const hooks = readHooks(response);
	if (this.getNodeParameter('output', itemIndex, 'perHook') === 'oneItem')
		return [{ json: { hooks } }];
	return hooks.map((hook) => ({ json: hook }));
}
