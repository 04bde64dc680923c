import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../../shared/transport';
import { toItems } from '../../../shared/shapes';
import { requiredText } from '../fields/parameters';
import { platformFields, platformValue } from '../fields/platform';

const show = { resource: ['hook'], operation: ['score'] };

export const description: INodeProperties[] = [
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			placeholder: 'e.g. Stop scrolling: this one habit doubled my reach',
			description: 'The hook to score',
		},
	]),
	...platformFields(show),
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Audience ID',
			name: 'audienceId',
			type: 'string',
			default: '',
			description: "Score for one of the brand profile's audiences (optional)",
		},
	]),
];

/**
 * POST /hooks/score: score, pattern, strengths, fixes, rewrite, breakdown, benchmark; plus `text`,
 * the text scored (the answer does not repeat it), so a next node can pick the best of many.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const body: IDataObject = { text: requiredText(this, 'text', 'Text', itemIndex) };
	const platform = platformValue(this, itemIndex);
	if (platform) body.platform = platform;
	const audienceId = (this.getNodeParameter('audienceId', itemIndex, '') as string).trim();
	if (audienceId) body.audienceId = audienceId;
	const response = await apiRequest(run, { method: 'POST', path: '/hooks/score', body }, itemIndex);
	return toItems(response).map(({ json }) => ({ json: { text: body.text as string, ...json } }));
}
