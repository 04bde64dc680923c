import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { credentialTypeOf, type Authentication } from '../shared/transport/connection';
import type { RunContext } from '../shared/transport';
import { fnv1a32, idHash } from './idMemory';

/**
 * Copies of each event family's state beyond the node's static data, for the two ways n8n's
 * durable engine can leave a poll's state unsaved:
 * - the activation record, in the workflow's global static data, which n8n saves after every
 *   activation: with durable cursors the node's state is a cursor n8n does not commit when the
 *   activation poll emits nothing, and the first scheduled poll would start without it;
 * - the quiet copy, in this process: without durable cursors n8n saves nothing after a poll that
 *   emits nothing, so what such a poll learned (a post queued again, say) would be forgotten.
 *   Only quiet polls are copied: an emitting poll whose save n8n abandons is run again from the
 *   state before it, and emits again. A copy applies only on top of the very saved state it grew
 *   from (another saved state means n8n saved a newer one, or the state was replaced). Lost at a
 *   restart (the saved state is then the newest).
 * Each copy carries `seq` (writes so far); the newest wins.
 *
 * A state remembers where it was read (`source`: the instance and the credential): read anywhere
 * else, it is not this list's memory, so the trigger takes a new starting point there.
 */
export type Family = 'generations' | 'posts';

/** What a family's state carries so two copies can be told apart. */
export interface Sequenced {
	seq: number;
	/** A hash of the instance URL and credential the state was read with. */
	source?: string;
}

/** One family's part of a poll: its items, and the state to save once every part has succeeded. */
export interface FamilyPoll {
	items: INodeExecutionData[];
	commit: (emitted: boolean) => void;
}

/** One trigger (workflow and node) in this process. */
export function triggerKey(ctx: IPollFunctions): string {
	return `${String(ctx.getWorkflow().id)}/${ctx.getNode().id}`;
}

function recordKey(ctx: IPollFunctions): string {
	return `socialContentTrigger:${ctx.getNode().id}`;
}

/**
 * The quiet copy of each trigger's family, with a hash of the saved state it grew from and one of
 * itself: the classic engine keeps a poll's unsaved state in memory, so the next poll reads the
 * copy itself back, and its copy still grows from what n8n saved.
 */
const quietCopies = new Map<string, { base: number; hash: number; state: Sequenced }>();
/** The saved state each poll started from (hashed), per family: the base of a copy it makes. */
const basesOfPoll = new WeakMap<IPollFunctions, Map<Family, number>>();
/** Triggers whose quiet copy is kept, at most (the oldest written give way). */
const MAX_QUIET_COPIES = 1000;

/** The base of a quiet copy made when nothing was saved yet (a hash is never negative). */
const NO_STATE = -1;

/**
 * The newest of the node's state and its copies. A starting point taken by a poll that n8n did not
 * save (the activation poll failed, then a scheduled one took it) is kept as a quiet copy too, but
 * an activation never starts from one: it takes its own.
 */
function newestState<Stored extends object, State extends Stored & Sequenced>(
	ctx: IPollFunctions,
	family: Family,
	stored: Stored | undefined,
	isCurrent: (state: unknown) => state is State,
	activation: boolean,
): Stored | undefined {
	const record = ctx.getWorkflowStaticData('global')[recordKey(ctx)] as IDataObject | undefined;
	const storedHash = stored === undefined ? NO_STATE : fnv1a32(JSON.stringify(stored));
	const quiet = quietCopies.get(`${triggerKey(ctx)}/${family}`);
	const grewFromStored =
		quiet !== undefined && (quiet.base === storedHash || quiet.hash === storedHash);
	const onStored = grewFromStored && !(activation && stored === undefined) ? quiet : undefined;
	let newest = stored;
	for (const copy of [record?.[family], onStored?.state]) {
		if (!isCurrent(copy) || typeof copy.seq !== 'number') continue;
		const newestSeq = (newest as Partial<Sequenced> | undefined)?.seq;
		if (newest === undefined || copy.seq > (typeof newestSeq === 'number' ? newestSeq : 0))
			newest = copy;
	}
	if (!basesOfPoll.has(ctx)) basesOfPoll.set(ctx, new Map());
	basesOfPoll.get(ctx)!.set(family, onStored ? onStored.base : storedHash);
	return newest;
}

/**
 * Saves a poll's state: into the node's static data (`write`), the activation record at
 * activation (`forRecord` may trim it), the quiet copy when the poll emitted nothing.
 */
function saveState<State extends Sequenced>(
	ctx: IPollFunctions,
	family: Family,
	state: State,
	how: {
		activation: boolean;
		emitted: boolean;
		write: (state: State) => void;
		forRecord?: (state: State) => State;
	},
): void {
	how.write(state);
	if (how.activation) {
		const records = ctx.getWorkflowStaticData('global');
		const key = recordKey(ctx);
		records[key] = {
			...((records[key] as IDataObject | undefined) ?? {}),
			[family]: (how.forRecord?.(state) ?? state) as unknown as IDataObject,
		};
	}
	const quietKey = `${triggerKey(ctx)}/${family}`;
	quietCopies.delete(quietKey);
	const text = JSON.stringify(state);
	const hash = fnv1a32(text);
	// n8n saves what the activation poll leaves, emitting or not: that is the base from then on.
	const base = how.activation ? hash : basesOfPoll.get(ctx)?.get(family);
	if (!how.emitted && base !== undefined) {
		quietCopies.set(quietKey, {
			base,
			hash,
			state: JSON.parse(text) as Sequenced,
		});
		if (quietCopies.size > MAX_QUIET_COPIES)
			quietCopies.delete(quietCopies.keys().next().value as string);
	}
}

/** How a family's state is read from and written to the node's static data. */
export interface FamilyStorage<Stored extends object, State extends Stored & Sequenced> {
	read: (staticData: IDataObject) => Stored | undefined;
	isCurrent: (state: unknown) => state is State;
	write: (staticData: IDataObject, state: State) => void;
	/** What the activation record keeps of the state (all of it by default). */
	forRecord?: (state: State) => State;
}

/**
 * A family's state for this poll (the newest copy), and the commit that saves the next one. A
 * state read from another instance or credential counts as none.
 */
export async function openFamily<Stored extends object, State extends Stored & Sequenced>(
	run: RunContext<IPollFunctions>,
	family: Family,
	activation: boolean,
	storage: FamilyStorage<Stored, State>,
): Promise<{
	state: Stored | undefined;
	commitOf: (next: State | undefined) => FamilyPoll['commit'];
}> {
	const ctx = run.n8n;
	const staticData = ctx.getWorkflowStaticData('node');
	const source = await sourceOf(run);
	let state = newestState(ctx, family, storage.read(staticData), storage.isCurrent, activation);
	// A state that replaces another counts on from it, so it is the newest of the copies.
	const priorSeq = Number((state as Partial<Sequenced> | undefined)?.seq) || 0;
	const readFrom = (state as Partial<Sequenced> | undefined)?.source;
	if (readFrom !== undefined && readFrom !== source) {
		ctx.logger.info(
			`Social Content Trigger: the instance or credential changed; a new starting point is taken for ${family}, and nothing finished before it fires`,
		);
		state = undefined;
	}
	return {
		state,
		commitOf: (next) => (emitted) => {
			if (next)
				saveState(
					ctx,
					family,
					{ ...next, source, seq: Math.max(next.seq, priorSeq + 1) },
					{
						activation,
						emitted,
						write: (state) => storage.write(staticData, state),
						forRecord: storage.forRecord,
					},
				);
		},
	};
}

/** Where the trigger reads: the API's address and the credential chosen (its id, never its secret). */
async function sourceOf(run: RunContext<IPollFunctions>): Promise<string> {
	const { baseURL } = await run.connectionFor(undefined);
	const authentication = run.n8n.getNodeParameter('authentication', 'apiKey') as Authentication;
	const type = credentialTypeOf(authentication) ?? authentication;
	const credential = run.n8n.getNode().credentials?.[type];
	return idHash(`${baseURL}|${type}|${credential?.id ?? credential?.name ?? ''}`).toString(36);
}
