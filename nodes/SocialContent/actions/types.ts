import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RunContext } from '../../shared/transport';

/**
 * Runs one operation for one input item and returns that item's output items. `run` is what the
 * items of this execution share (connection, pace, values read once).
 */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
) => Promise<INodeExecutionData[]>;

export interface Operation {
	/** The operation's own fields, shown only for it. */
	description: INodeProperties[];
	execute: OperationExecute;
	/** Whether it creates something on the service (and may charge for it): never sent twice blind. */
	creates?: boolean;
}
