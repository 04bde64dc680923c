import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/**
 * The activation record: each event family's state as the activation poll left it, in the
 * workflow's global static data, which n8n saves after every activation. With durable cursors
 * the node's state lives in a cursor n8n does not commit when the activation poll emits nothing;
 * the first scheduled poll then starts from this record, so nothing that happened since
 * activation is lost. It only bridges to the next committed state.
 */
export type Family = 'generations' | 'posts';

/** What a family's state carries so two copies can be told apart: writes so far. */
export interface Sequenced {
	seq: number;
}

function recordKey(ctx: IPollFunctions): string {
	return `socialContentTrigger:${ctx.getNode().id}`;
}

export function readRecorded<State extends Sequenced>(ctx: IPollFunctions, family: Family, isCurrent: (state: unknown) => state is State): State | undefined {
	const record = ctx.getWorkflowStaticData('global')[recordKey(ctx)] as IDataObject | undefined;
	const state = record?.[family];
	return isCurrent(state) && typeof state.seq === 'number' ? state : undefined;
}

export function writeRecorded(ctx: IPollFunctions, family: Family, state: object): void {
	const records = ctx.getWorkflowStaticData('global');
	const key = recordKey(ctx);
	records[key] = { ...((records[key] as IDataObject | undefined) ?? {}), [family]: state as IDataObject };
}

/** The node's state, unless the recorded one is newer (an activation poll n8n did not commit). */
export function newerOf<Stored extends object, State extends Stored & Sequenced>(stored: Stored | undefined, recorded: State | undefined): Stored | undefined {
	if (!recorded) return stored;
	if (!stored) return recorded;
	const storedSeq = (stored as Partial<Sequenced>).seq;
	return recorded.seq > (typeof storedSeq === 'number' ? storedSeq : 0) ? recorded : stored;
}

/** One family's part of a poll: its items, and the state to save once every part has succeeded. */
export interface FamilyPoll {
	items: INodeExecutionData[];
	commit: () => void;
}
