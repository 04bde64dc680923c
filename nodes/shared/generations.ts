import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, outOfTime, saveDownload, type RunContext } from './transport';
import { shortDate } from './dates';
import { fetchFormats } from './formats';
import { walkPages } from './paging';
import { picker } from './picker';
import { simplifyGeneration } from './simplify';
import {
	failureReason,
	generationTime,
	normaliseGeneration,
	type GenerationOutput,
} from './shapes';
import { operationHint } from './hints';

/**
 * GET /studio/generations/:id. `namedByUser`: the id came from a parameter, so a 500 may mean an
 * unknown id (not after a start of ours, where it means the service failed).
 */
export async function getGeneration(
	run: RunContext,
	id: string,
	itemIndex?: number,
	namedByUser = false,
): Promise<IDataObject> {
	const response = await apiRequest(
		run,
		{
			method: 'GET',
			path: `/studio/generations/${encodeURIComponent(id)}`,
			...(namedByUser ? { about: { kind: 'generation', id } } : {}),
		},
		itemIndex,
	);
	return normaliseGeneration(response);
}

export interface WaitOptions {
	timeoutMs: number;
	firstIntervalMs: number;
	maxIntervalMs: number;
	/**
	 * At the timeout or the run's deadline (a tool call's bound), answer the generation as last
	 * seen (still queued or running) instead of failing.
	 */
	answerWhenTimedOut?: boolean;
}

/** A generation as the wait left it: done, or (answerWhenTimedOut) as last seen when time ran out. */
export interface Waited {
	generation: IDataObject;
	/** The service asked to wait this long before the next check (a 429 the time left could not take). */
	retryInMs?: number;
}

/**
 * Polls the `started` generation until `done` or `failed`, backing off from a few seconds, until
 * the timeout or the run's deadline, whichever is first; stops when the execution is cancelled.
 * `failed` and the timeout are errors that name the generation, so nothing started is lost.
 */
export async function waitForGeneration(
	ctx: IExecuteFunctions,
	run: RunContext,
	started: IDataObject,
	itemIndex: number,
	options: WaitOptions,
): Promise<Waited> {
	const id = String(started.id);
	const deadline = Math.min(run.clock.now() + options.timeoutMs, run.deadlineMs ?? Infinity);
	const signal = ctx.getExecutionCancelSignal();
	let interval = options.firstIntervalMs;
	let generation = started;
	for (;;) {
		try {
			generation = await getGeneration(run, id, itemIndex);
		} catch (error) {
			// The run's deadline left no time for this check (or its 429's wait): as last seen.
			const late = outOfTime(error);
			if (late && options.answerWhenTimedOut) return { generation, retryInMs: late.retryInMs };
			throw whileWaiting(error, id);
		}
		if (generation.status === 'done') return { generation };
		if (generation.status === 'failed') throw generationFailedError(ctx, generation, itemIndex);
		const left = deadline - run.clock.now();
		if (left <= 0 && options.answerWhenTimedOut) return { generation };
		if (left <= 0) {
			throw withGenerationId(
				new NodeApiError(
					ctx.getNode(),
					{ generationId: id, status: String(generation.status) },
					{
						message: `Generation ${id} did not finish in time (still ${String(generation.status)})`,
						description: `It was started and may still finish: use ${operationHint('getGeneration')} with ID ${id} later, or raise "Timeout (Minutes)". It was not started again.`,
						itemIndex,
					},
				),
				id,
			);
		}
		await run.clock.wait(Math.min(interval, left), signal);
		interval = Math.min(Math.round(interval * 1.5), options.maxIntervalMs);
	}
}

/**
 * An error met while waiting for a generation that was started: the credits are spent, so it says
 * so and where to look, instead of inviting a run that would start (and charge) it again.
 */
function whileWaiting(error: unknown, id: string): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	error.message = `Generation ${id} was started, but waiting for it failed: ${error.message}`;
	error.description = `Do not run this node again for it, that would start and charge a new one: use ${operationHint('getGeneration')} with ID ${id} to see how it ended.${error.description ? ` ${error.description}` : ''}`;
	return withGenerationId(error, id);
}

/** Errors about one generation carry its id: the router puts it in the error item (`generationId`). */
function withGenerationId<E extends NodeApiError | NodeOperationError>(error: E, id: string): E {
	error.context.generationId = id;
	return error;
}

export function generationFailedError(
	ctx: IExecuteFunctions,
	generation: IDataObject,
	itemIndex: number,
): NodeApiError {
	const reasonText = failureReason(generation);
	const id = String(generation.id);
	const error = new NodeApiError(
		ctx.getNode(),
		{ generationId: id, status: 'failed' },
		{
			message: `Generation ${id} failed${reasonText ? `: ${reasonText}` : ''}`,
			description: `The service reported it as failed. Check its inputs and start a new one; ${operationHint('getCredits')} shows what is left.`,
			itemIndex,
		},
	);
	return withGenerationId(error, id);
}

/** Binary property name of the n-th output: output_0, output_1, … */
export function outputPropertyName(index: number): string {
	return `output_${index}`;
}

export interface GenerationItemOptions {
	/** Attach each output as binary data. */
	download: boolean;
	/** Output the simplified generation (see simplifyGeneration) instead of every field. */
	simplify: boolean;
}

/** The generation as an item, optionally with each output downloaded into its own binary property. */
export async function generationItem(
	ctx: IExecuteFunctions | IPollFunctions,
	run: RunContext,
	generation: IDataObject,
	options: GenerationItemOptions,
	itemIndex?: number,
): Promise<INodeExecutionData> {
	const json = options.simplify ? simplifyGeneration(generation) : generation;
	if (!options.download) return { json };
	const binary: IBinaryKeyData = {};
	const outputs = generation.outputs as GenerationOutput[];
	for (let index = 0; index < outputs.length; index++) {
		binary[outputPropertyName(index)] = await saveDownload(
			run,
			outputs[index].location,
			itemIndex,
			async (file) =>
				await ctx.helpers.prepareBinaryData(
					file.data,
					file.fileName ?? outputPropertyName(index),
					file.mimeType,
				),
		);
	}
	return { json, binary };
}

/** Generation ID: a picker over the latest generations, or the ID (from Start Generation or the trigger). */
export function generationLocator(show: Record<string, string[]>): INodeProperties {
	return picker(
		{
			displayName: 'Generation',
			name: 'generationId',
			description:
				'The generation to read. The list shows the latest ones; an ID comes from Start Generation, Get Many Generations or the Social Content Trigger (its id field, e.g. gen_…).',
			searchListMethod: 'searchGenerations',
			placeholder: 'e.g. gen_8f2k1',
		},
		show,
	);
}

/** The first page of GET /studio/generations, labelled for a picker. */
export async function recentGenerations(
	run: RunContext,
): Promise<Array<{ id: string; label: string }>> {
	const generations: IDataObject[] = [];
	await walkPages(
		run,
		'/studio/generations',
		{ listKeys: ['generations'], maxPages: 1 },
		(page) => {
			generations.push(...page.map(normaliseGeneration));
			return false;
		},
	);
	// Formats by the names the format list shows; their ids if the list cannot be read.
	const formatNames = new Map(
		(await fetchFormats(run).catch(() => [])).map((format) => [format.id, format.name]),
	);
	return generations
		.filter((generation) => generation.id !== undefined && generation.id !== '')
		.map((generation) => {
			const when = shortDate(generationTime(generation), run.n8n.getTimezone());
			const format = formatNames.get(String(generation.format)) ?? generation.format;
			const parts = [format, generation.status, when, generation.id].filter(
				(part) => part !== undefined && part !== '',
			);
			return { id: String(generation.id), label: parts.map(String).join(' · ') };
		});
}
