import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** Runs one operation for one input item and returns that item's output items. */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

export interface Operation {
	/** The operation's own fields, shown only for it. */
	description: INodeProperties[];
	execute: OperationExecute;
}
