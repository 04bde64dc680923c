import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type RunContext } from '../../transport';
import { fetchFormats, formatLocator } from '../shared/formats';
import { generationItem, normaliseGeneration, waitForGeneration } from '../shared/generations';
import { jsonObject, keyValuePairs, locatorId } from '../shared/parameters';

const show = { resource: ['studio'], operation: ['startGeneration'] };

export const description: INodeProperties[] = [
	formatLocator(show),
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Hook',
			name: 'hook',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'The hook text, for formats that take one (wall_of_text, slideshow, hook_plus_demo, …). Sent as input.hook.',
		},
		{
			displayName: 'Other Inputs',
			name: 'otherInputs',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Input',
			default: {},
			description: 'Further inputs of the format, by name (see "List Formats" for each format\'s inputs)',
			options: [
				{
					displayName: 'Input',
					name: 'input',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							description: 'Numbers, true/false and JSON values are sent as such',
						},
					],
				},
			],
		},
		{
			displayName: 'Inputs (JSON)',
			name: 'inputJson',
			type: 'json',
			default: '',
			description: 'Inputs as one JSON object; merged over the fields above',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Download Outputs',
					name: 'downloadOutputs',
					type: 'boolean',
					default: false,
					description: 'Whether to wait until the generation is done and attach its outputs as binary data (output_0, output_1, …). Turns on Wait for Completion.',
				},
				{
					displayName: 'Max Credits',
					name: 'maxCredits',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description: 'Refuse to start when the format costs more credits than this; 0 means no limit',
				},
				{
					displayName: 'Poll Interval (Seconds)',
					name: 'pollInterval',
					type: 'number',
					typeOptions: { minValue: 0.1 },
					default: 3,
					description: 'First wait between status checks; it grows by half each time, up to 30 seconds',
				},
				{
					displayName: 'Timeout (Minutes)',
					name: 'timeout',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 15,
					description: 'How long to wait for completion before failing with the generation\'s ID',
				},
				{
					displayName: 'Wait for Completion',
					name: 'waitForCompletion',
					type: 'boolean',
					default: false,
					description: 'Whether to wait until the generation is done (or failed) before going on',
				},
			],
		},
	]),
];

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /studio/generations: starts a paid generation, once; optionally waits and downloads. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const formatId = locatorId(this, 'format', 'format', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const input = generationInput(this, itemIndex);

	const maxCredits = Number(options.maxCredits ?? 0);
	if (maxCredits > 0) await refuseAbovePrice(this, run, formatId, maxCredits, itemIndex);

	const started = await apiRequest(run, { method: 'POST', path: '/studio/generations', body: { formatId, input } },
		itemIndex,
	);
	const generation = normaliseGeneration(started);
	// Files exist only once the generation is done: asking for them means waiting for it.
	if (!options.waitForCompletion && !options.downloadOutputs) return [{ json: generation }];

	const done = await waitForGeneration(this, run, String(generation.id), itemIndex, {
		timeoutMs: Number(options.timeout ?? 15) * 60_000,
		firstIntervalMs: Number(options.pollInterval ?? 3) * 1000,
		maxIntervalMs: 30_000,
	});
	// Keep what only the start answer tells (the credits charged).
	const merged = { ...generation, ...done, credits: done.credits ?? generation.credits };
	return [await generationItem(this, run, merged, Boolean(options.downloadOutputs), itemIndex)];
}

function generationInput(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const input: IDataObject = {};
	const hook = (ctx.getNodeParameter('hook', itemIndex, '') as string).trim();
	if (hook) input.hook = hook;
	const pairs = ctx.getNodeParameter('otherInputs.input', itemIndex, []) as Array<{ name: string; value: string }>;
	Object.assign(input, keyValuePairs(pairs));
	Object.assign(input, jsonObject(ctx, 'inputJson', 'Inputs (JSON)', itemIndex));
	return input;
}

async function refuseAbovePrice(ctx: IExecuteFunctions, run: RunContext, formatId: string, maxCredits: number, itemIndex: number) {
	const format = (await fetchFormats(run, itemIndex)).find((entry) => entry.id === formatId);
	if (!format) {
		throw new NodeOperationError(ctx.getNode(), `Unknown format "${formatId}"`, {
			itemIndex,
			description: 'Pick a format from the list; "Studio → List Formats" shows them all.',
		});
	}
	if (format.price === undefined) {
		throw new NodeOperationError(ctx.getNode(), `The service gives no price for format "${formatId}", so Max Credits cannot be checked`, {
			itemIndex,
			description: 'Set Max Credits to 0 to start without the check.',
		});
	}
	if (format.price > maxCredits) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Format "${formatId}" costs ${format.price} credits, more than Max Credits (${maxCredits})`,
			{ itemIndex, description: 'Nothing was started. Raise Max Credits or choose a cheaper format.' },
		);
	}
}
