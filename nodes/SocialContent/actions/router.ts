import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as channel from './channel';
import * as hook from './hook';
import * as media from './media';
import * as post from './post';
import * as studio from './studio';
import type { ResourceName, SocialContentOperations } from './node.type';
import type { Operation } from './types';
import { isToolRun, TOOL_CALL_BOUND_MS } from './fields/parameters';
import { refuseUnknownChoices } from './fields/choices';
import { createdId } from '../../shared/shapes';
import { RunContext } from '../../shared/transport';

export const resources: { [R in ResourceName]: Record<SocialContentOperations[R], Operation> } = {
	account: account.operations,
	channel: channel.operations,
	hook: hook.operations,
	media: media.operations,
	post: post.operations,
	studio: studio.operations,
};

/** Runs the operation chosen by the Resource and Operation parameters. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = (resources as Record<string, Record<string, Operation> | undefined>)[resource]?.[
		operation
	];
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
			{
				description: 'Pick a resource and an operation from the lists.',
			},
		);
	}

	return await runForEachItem.call(this, chosen);
}

/**
 * Runs an operation once per input item. The item loop, pairing, and error handling live here
 * only: an operation handles one item and returns its output items.
 */
export async function runForEachItem(
	this: IExecuteFunctions,
	operation: Pick<Operation, 'execute' | 'creates'> & Partial<Pick<Operation, 'description'>>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const concurrency = Math.min(
		Math.max(1, Math.floor(Number(this.getNodeParameter('requestOptions.concurrency', 0, 1)) || 1)),
		Math.max(1, items.length),
	);
	// Lives as long as this execution of the node: its items share the connection and the pace.
	const run = new RunContext(this);
	// The pacer weighs a faster try against what is left of the run.
	run.pacer.expectItems(items.length);
	// A tool's caller (an agent, an MCP client) gives up after its own timeout and n8n goes on
	// regardless: every request and wait of the call ends within the bound.
	if (isToolRun(this)) run.bindToCall(TOOL_CALL_BOUND_MS);
	const outputs: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let stopped: NodeApiError | NodeOperationError | undefined;

	// A few workers take items in order; each item's output keeps its input's place.
	const worker = async () => {
		while (next < items.length && !stopped) {
			const itemIndex = next++;
			run.pacer.itemStarted();
			try {
				refuseUnknownChoices(this, operation.description ?? [], itemIndex);
				const results = await operation.execute.call(this, itemIndex, run);
				// As an AI agent's tool, no items reach the model as an empty string: say so instead.
				if (!results.length && isToolRun(this)) results.push({ json: NOTHING_FOUND });
				outputs[itemIndex] = results.map((result) => ({
					...result,
					pairedItem: { item: itemIndex },
				}));
			} catch (caught) {
				const error = withItemIndex(this, caught, itemIndex);
				if (!this.continueOnFail()) {
					stopped ??= error;
					return;
				}
				outputs[itemIndex] = [{ ...errorItem(error), pairedItem: { item: itemIndex } }];
			} finally {
				run.pacer.itemDone();
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	if (stopped) {
		if (operation.creates) nameWhatWasCreated(stopped, outputs);
		throw stopped;
	}
	return [outputs.flat()];
}

/** What an agent's model reads when an operation found nothing. */
const NOTHING_FOUND = {
	found: 0,
	message: 'Nothing was found: the service answered with an empty list',
};

/**
 * A failed item stops the node and n8n drops the outputs of the items that succeeded. For an
 * operation that creates (and may charge), the error names what already exists, so nobody runs
 * the whole batch again blind.
 */
function nameWhatWasCreated(
	error: NodeApiError | NodeOperationError,
	outputs: INodeExecutionData[][],
): void {
	const created = outputs.flatMap((results, itemIndex) =>
		(results ?? [])
			.map((result) => createdId(result.json))
			.filter((id) => id !== undefined)
			.map((id) => `item ${itemIndex}: ${id}`),
	);
	if (created.length === 0) return;
	const shown =
		created.length > 20 ? [...created.slice(0, 20), `… and ${created.length - 20} more`] : created;
	error.description = `${error.description ? `${error.description}\n\n` : ''}Already created by this run before it stopped (${created.length}; running the node again creates them again): ${shown.join(', ')}. Turn on "Continue On Fail" in the node's settings to keep the created items' outputs; do not use "Retry On Fail" here, it sends every item again.`;
	(error.context as IDataObject).createdIds = created;
}

/**
 * An item for a failed input item under Continue On Fail. n8n shows the attached `error` (message
 * and description) and routes the item to the error output, but replaces its json with the message
 * alone. An error about a started generation must keep its id for the next node, so it goes as
 * `{ error, details }` instead, the other form n8n routes to the error output.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
): Pick<INodeExecutionData, 'json' | 'error'> {
	const generationId = error.context.generationId as string | undefined;
	if (!generationId) return { json: { error: error.message }, error };
	return {
		json: {
			error: error.message,
			details: { generationId, ...(error.description ? { description: error.description } : {}) },
		},
	};
}

function withItemIndex(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
