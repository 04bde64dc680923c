import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as channel from './channel';
import * as hook from './hook';
import * as media from './media';
import * as post from './post';
import * as studio from './studio';
import type { Operation, OperationExecute } from './types';

export const resources: Record<string, Record<string, Operation>> = {
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
	const run = resources[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
			description: 'Pick a resource and an operation from the lists.',
		});
	}

	return await runForEachItem.call(this, run.execute);
}

/**
 * Runs an operation once per input item. The item loop, pairing, and error handling live here
 * only: an operation handles one item and returns its output items.
 */
export async function runForEachItem(
	this: IExecuteFunctions,
	execute: OperationExecute,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const concurrency = Math.min(
		Math.max(1, Math.floor(Number(this.getNodeParameter('requestOptions.concurrency', 0, 1)) || 1)),
		Math.max(1, items.length),
	);
	const outputs: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let stopped: Error | undefined;

	// A few workers take items in order; each item's output keeps its input's place.
	const worker = async () => {
		while (next < items.length && !stopped) {
			const itemIndex = next++;
			try {
				const results = await execute.call(this, itemIndex);
				outputs[itemIndex] = results.map((result) => ({ ...result, pairedItem: { item: itemIndex } }));
			} catch (caught) {
				const error = withItemIndex(this, caught, itemIndex);
				if (!this.continueOnFail()) {
					stopped ??= error;
					return;
				}
				// n8n shows `error` (message and description) and routes such items to the error output.
				outputs[itemIndex] = [{ json: { error: error.message }, error, pairedItem: { item: itemIndex } }];
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	if (stopped) throw stopped;
	return [outputs.flat()];
}

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
