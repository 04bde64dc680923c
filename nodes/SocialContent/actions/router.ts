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
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await execute.call(this, itemIndex);
			for (const result of results) output.push({ ...result, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = withItemIndex(this, caught, itemIndex);
			if (!this.continueOnFail()) throw error;
			// n8n shows `error` (message and description) and routes such items to the error output.
			output.push({
				json: { error: error.message },
				error,
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [output];
}

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
