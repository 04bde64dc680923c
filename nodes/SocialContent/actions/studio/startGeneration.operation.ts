import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, durationText, outOfTime, type RunContext } from '../../../shared/transport';
import { fetchFormats, formatLocator, formatMention } from '../../../shared/formats';
import { generationItem, waitForGeneration, type Waited } from '../../../shared/generations';
import { namedField, normaliseGeneration } from '../../../shared/shapes';
import { mappedInputs, type FormatNamed } from '../fields/mappedInputs';
import { simplifyProperty } from '../../../shared/simplify';
import {
	isToolRun,
	jsonObject,
	keyValuePairs,
	locatorId,
	TOOL_CALL_BOUND_MS,
} from '../fields/parameters';
import { operationHint } from '../../../shared/hints';

const show = { resource: ['studio'], operation: ['startGeneration'] };

export const description: INodeProperties[] = [
	formatLocator(show),
	...updateDisplayOptions({ show }, [
		{
			displayName: 'Give Inputs As',
			name: 'inputMode',
			type: 'options',
			noDataExpression: true,
			description:
				"How to give the format's inputs: as fields (loaded for the chosen format), by name, or as JSON",
			options: [
				{
					name: 'Fields of the Format',
					value: 'fields',
					description: 'One field per input of the chosen format, loaded from the service',
				},
				{
					name: 'Name/Value Pairs',
					value: 'pairs',
					description: 'Inputs by name, for formats that do not describe theirs',
				},
				{ name: 'JSON', value: 'json', description: 'All inputs as one JSON object' },
			],
			default: 'fields',
		},
		{
			displayName: 'Format Inputs',
			name: 'inputs',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			required: true,
			description:
				'The inputs of the chosen format (prompt, hook, script, …), loaded from the service',
			typeOptions: {
				loadOptionsDependsOn: ['format.value'],
				resourceMapper: {
					resourceMapperMethod: 'getFormatInputs',
					mode: 'add',
					fieldWords: { singular: 'input', plural: 'inputs' },
					addAllFields: true,
					multiKeyMatch: false,
					supportAutoMap: true,
				},
			},
			displayOptions: { show: { inputMode: ['fields'] } },
		},
		{
			displayName: 'List Inputs',
			name: 'listInputs',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add List Input',
			default: {},
			description:
				"The chosen format's inputs that take a list, such as a slideshow's slides or captions",
			displayOptions: { show: { inputMode: ['fields'] } },
			options: [
				{
					displayName: 'List Input',
					name: 'input',
					values: [
						{
							displayName: 'Input Name or ID',
							name: 'name',
							type: 'options',
							typeOptions: {
								loadOptionsMethod: 'getListInputs',
								loadOptionsDependsOn: ['format.value'],
							},
							default: '',
							description:
								'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
						},
						{
							displayName: 'Entries',
							name: 'entries',
							type: 'string',
							typeOptions: { rows: 4 },
							default: '',
							placeholder: 'Intro\nThe first mistake, and why\nOutro',
							hint: 'One entry per line; commas stay inside an entry. A JSON array, or an expression giving an array, works too.',
						},
					],
				},
			],
		},
		{
			displayName: 'Inputs by Name',
			name: 'otherInputs',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Input',
			default: {},
			description:
				"Inputs of the format by name, e.g. prompt. Studio → Get Many Formats shows each format's inputs.",
			displayOptions: { show: { inputMode: ['pairs'] } },
			options: [
				{
					displayName: 'Input',
					name: 'input',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'e.g. prompt',
						},
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
			default: '{}',
			description: 'All inputs as one JSON object, e.g. {"prompt": "a red bicycle"}',
			displayOptions: { show: { inputMode: ['json'] } },
		},
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: true,
			description: `Whether to wait until the generation is done (or failed) before going on. Off: the node returns the started generation at once; use Studio → Get Generation or the Social Content Trigger later. As an AI tool the whole call answers within ${TOOL_CALL_BOUND_MS / 1000} s: the result, or the generation's ID, its status and the call to make next.`,
		},
		{
			displayName: 'Download Outputs',
			name: 'downloadOutputs',
			type: 'boolean',
			default: true,
			description:
				'Whether to attach the finished files as binary data (output_0, output_1, …), ready for Post → Create or any file node',
			displayOptions: { show: { waitForCompletion: [true] } },
		},
		{
			displayName: 'Timeout (Minutes)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 15,
			description:
				"How long to wait before failing with the generation's ID (it is not started again)",
			displayOptions: { show: { waitForCompletion: [true] } },
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 0.1 },
			default: 3,
			description: 'First wait between status checks; it grows by half each time, up to 30 seconds',
			displayOptions: { show: { waitForCompletion: [true] } },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Max Credits',
					name: 'maxCredits',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description:
						'Refuse to start when the format costs more credits than this; 0 means no limit',
				},
			],
		},
		simplifyProperty,
	]),
];

/** Creates on the service: the router names what was created if a later item fails. */
export const creates = true;

/** POST /studio/generations: starts a paid generation, once; optionally waits and downloads. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const formatId = locatorId(this, 'format', 'format', itemIndex);
	const format = { id: formatId, name: pickedName(this, itemIndex) };
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const input = generationInput(this, format, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const maxCredits = Number(options.maxCredits ?? 0);
	if (maxCredits > 0) await refuseAbovePrice(this, run, formatId, maxCredits, itemIndex);

	const started = await apiRequest(
		run,
		{ method: 'POST', path: '/studio/generations', body: { formatId, input } },
		itemIndex,
	).catch(async (error: unknown) => {
		throw (
			lateStart(error, run) ?? (await unknownFormatError(this, run, formatId, itemIndex, error))
		);
	});
	const generation = normaliseGeneration(started);
	if (!this.getNodeParameter('waitForCompletion', itemIndex, true)) {
		return [await generationItem(this, run, generation, { download: false, simplify }, itemIndex)];
	}

	// As a tool, the run ends at the call's bound (the router's): the generation's id in time, its
	// status and what to call next, rather than a caller that gave up and starts it again.
	const asTool = isToolRun(this);
	const waited = await waitForGeneration(this, run, generation, itemIndex, {
		timeoutMs: Number(this.getNodeParameter('timeout', itemIndex, 15)) * 60_000,
		firstIntervalMs: Number(this.getNodeParameter('pollInterval', itemIndex, 3)) * 1000,
		maxIntervalMs: asTool ? 5_000 : 30_000,
		answerWhenTimedOut: asTool,
	});
	const done = waited.generation;
	if (done.status !== 'done') return [stillRunningItem(generation, waited, itemIndex)];
	// Keep what only the start answer tells (the credits charged).
	const merged = { ...generation, ...done, credits: done.credits ?? generation.credits };
	const download = this.getNodeParameter('downloadOutputs', itemIndex, true) as boolean;
	const item = generationItem(this, run, merged, { download, simplify }, itemIndex);
	return [
		await item.catch(async (error: unknown) => {
			if (!asTool || !outOfTime(error)) throw error;
			// The bound came before the files: the result without them, and how to get them.
			const json = (await generationItem(this, run, merged, { download: false, simplify })).json;
			return { json: { ...json, message: filesLateMessage(String(generation.id)) } };
		}),
	];
}

/**
 * A start the tool call's bound cut short (a 429's wait too long for it, or no answer in time),
 * said so that the caller knows whether anything was started and what to do; undefined for any
 * other error.
 */
function lateStart(error: unknown, run: RunContext): unknown {
	const late = outOfTime(error);
	if (!late || run.callBoundMs === undefined || !(error instanceof Error)) return undefined;
	const bound = `${Math.round(run.callBoundMs / 1000)} s at most`;
	if (!late.nothingDone) {
		error.message = `The start got no answer within this call (${bound}): the generation may have been started, and charged. Before starting it again, look for it with ${operationHint('listGenerations')}`;
		return error;
	}
	const wait = late.retryInMs === undefined ? undefined : durationText(late.retryInMs);
	error.message = wait
		? `Nothing was started or charged: the service is rate limiting and asks to wait ${wait}, longer than this call may take (${bound}). Make the same call again in ${wait}`
		: `Nothing was started or charged: no time was left in this call (${bound}) to send the start. Make the same call again`;
	return error;
}

/**
 * A start the service refused (400, or 404 "Format not found") for a format it does not have:
 * says so with the formats that exist, so a person or a model can send one of them. The refusal
 * need not name the format (a 400 "invalid id"): the format list tells. Any other error passes
 * as it is.
 */
async function unknownFormatError(
	ctx: IExecuteFunctions,
	run: RunContext,
	formatId: string,
	itemIndex: number,
	error: unknown,
): Promise<unknown> {
	const status = String((error as { httpCode?: unknown }).httpCode);
	if (status !== '400' && status !== '404') return error;
	// A refusal that names another field (`input.hook: too long`) is said at once, as it came.
	const words = (error as Error).message.replace(/^The service rejected the request: /, '');
	const field = namedField(words)?.field;
	if (field !== undefined && !/format/i.test(field)) return error;
	const formats = await fetchFormats(run, itemIndex).catch(() => []);
	if (!formats.length || formats.some((format) => format.id === formatId)) return error;
	return new NodeOperationError(
		ctx.getNode(),
		`There is no format "${formatId}" on this instance: send one of ${formats
			.map((format) =>
				format.name && format.name !== format.id ? `${format.id} (${format.name})` : format.id,
			)
			.join(', ')}.`,
		{
			itemIndex,
			description: `The service refused the start (${status}), so nothing was charged. ${(error as Error).message}`,
		},
	);
}

/**
 * What a tool call answers for a generation not done at its bound: its id, its status as last
 * seen, and what to do next (when, if the service asked to wait).
 */
function stillRunningItem(
	started: IDataObject,
	waited: Waited,
	itemIndex: number,
): INodeExecutionData {
	const id = String(started.id);
	const now = waited.generation;
	const wait = waited.retryInMs === undefined ? undefined : durationText(waited.retryInMs);
	const limited = wait ? ` (the service is rate limiting: it asks to wait ${wait})` : '';
	return {
		json: {
			id,
			status: String(now.status),
			credits: (now.credits ?? started.credits ?? null) as IDataObject[string],
			message: `Generation ${id} was started (once, and charged) and is still ${String(now.status)}${limited}. Do not start it again: call ${operationHint('getGeneration')} with generationId ${id} in ${wait ?? 'a minute'} to read its outputs.`,
		},
		pairedItem: { item: itemIndex },
	};
}

/** What a tool call answers with a generation done at its bound but its files not all downloaded. */
function filesLateMessage(id: string): string {
	return `Generation ${id} is done (started once, and charged), but its files did not arrive within this call. Do not start it again: call ${operationHint('getGeneration')} with generationId ${id} and Download Outputs on to get them.`;
}

/** The `input` object, from whichever way the user gave it; required inputs checked before sending. */
function generationInput(
	ctx: IExecuteFunctions,
	format: FormatNamed,
	itemIndex: number,
): IDataObject {
	const mode = ctx.getNodeParameter('inputMode', itemIndex, 'fields') as string;
	if (mode === 'json') return jsonObject(ctx, 'inputJson', 'Inputs (JSON)', itemIndex);
	if (mode === 'pairs') {
		return keyValuePairs(
			ctx.getNodeParameter('otherInputs.input', itemIndex, []) as Array<{
				name: string;
				value: string;
			}>,
		);
	}
	return mappedInputs(ctx, format, itemIndex);
}

/** The picked format's name as the picker showed it (n8n keeps it with the choice), if any. */
function pickedName(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const picked = ctx.getNodeParameter('format', itemIndex, {}) as { cachedResultName?: unknown };
	return typeof picked?.cachedResultName === 'string' ? picked.cachedResultName : undefined;
}

async function refuseAbovePrice(
	ctx: IExecuteFunctions,
	run: RunContext,
	formatId: string,
	maxCredits: number,
	itemIndex: number,
) {
	const formats = await fetchFormats(run, itemIndex);
	const format = formats.find((entry) => entry.id === formatId);
	if (!format) {
		const known = formats.map(formatMention).join(', ') || 'none';
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown format "${formatId}"; the formats are: ${known}`,
			{
				itemIndex,
				description: `Pick a format from the list; ${operationHint('listFormats')} shows them all.`,
			},
		);
	}
	if (format.price === undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service gives no price for format ${formatMention(format)}, so Max Credits cannot be checked`,
			{
				itemIndex,
				description: 'Set Max Credits to 0 to start without the check.',
			},
		);
	}
	if (format.price > maxCredits) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Format ${formatMention(format)} costs ${format.price} credits, more than Max Credits (${maxCredits})`,
			{
				itemIndex,
				description: 'Nothing was started. Raise Max Credits or choose a cheaper format.',
			},
		);
	}
}
