import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { readOrganization } from '../shared/shapes';
import { credentialTypeOf, type Authentication } from '../shared/transport/connection';
import { apiRequest, type RunContext } from '../shared/transport';
import { textHash } from './idMemory';

/**
 * What a poll keeps beyond its run, for both families: the state, its account (instance and
 * GET /agents/ping's `organization`, hashed), the time budget. n8n's durable engine may leave a
 * state unsaved (a quiet poll, an uncommitted activation): this process's quiet copy and the
 * activation record (its newest only, which outlives a restart) cover it. A copy applies only on a
 * state it grew from; `seq` picks the newest, the quiet copy on a tie.
 */
export type Family = 'generations' | 'posts';

/** What a family's state carries so two copies can be told apart, and whose it is. */
export interface Sequenced {
	seq: number;
	account?: string;
}

/** One family's part of a poll: its items, and the state to save once every part has succeeded. */
export interface FamilyPoll {
	items: INodeExecutionData[];
	commit: (emitted: boolean) => void;
}

/** One trigger (workflow and node) in this process. */
const triggerKey = (ctx: IPollFunctions) => `${String(ctx.getWorkflow().id)}/${ctx.getNode().id}`;

/** Most time one poll spends (ms): inside the durable engine's 45 s, past which it polls again. */
export const POLL_TIME_BUDGET_MS = 20_000;

/** The poll's budget: ours, or less when n8n gives the poll less (its durable engine says how much). */
export function pollBudgetMs(ctx: IPollFunctions): number {
	const given = givenBudgetMs(ctx);
	return Number.isFinite(given) && given > 0
		? Math.min(POLL_TIME_BUDGET_MS, given * 0.8)
		: POLL_TIME_BUDGET_MS;
}

/** The budget n8n gives this poll (its durable engine, and n8n-core's PollContext in 2.x); NaN when none. */
const givenBudgetMs = (ctx: Partial<IPollFunctions>): number =>
	Number(ctx.getPollBudgetMs?.() ?? NaN);

export const timeLeft = (run: RunContext<IPollFunctions>): number =>
	(run.deadlineMs ?? Infinity) - run.clock.now();

/** Start time of the poll running now, per trigger, in this process (see startPoll). */
const runningPolls = new Map<string, number>();
/** A poll still marked running this long past its budget has hung: the next one goes ahead. */
const STUCK_POLL_MS = 60_000;

/** Marks the poll running; undefined while the last one runs (two would fire the same events). */
export function startPoll(run: RunContext<IPollFunctions>): (() => void) | undefined {
	const key = triggerKey(run.n8n);
	const running = runningPolls.get(key);
	const now = run.clock.now();
	if (running !== undefined && now - running < pollBudgetMs(run.n8n) + STUCK_POLL_MS)
		return undefined;
	runningPolls.set(key, now);
	return () => {
		if (runningPolls.get(key) === now) runningPolls.delete(key);
	};
}

/** Failed tries per generation in this process: a floor for polls n8n does not save. */
const triesByTrigger = new Map<string, Map<string, number>>();
/** Tries kept per trigger, at most: only generations still due matter. */
const MAX_TRIES_KEPT = 2000;

export function triesOf(ctx: IPollFunctions): Map<string, number> {
	const key = triggerKey(ctx);
	let tries = triesByTrigger.get(key);
	if (!tries) triesByTrigger.set(key, (tries = new Map()));
	if (tries.size > MAX_TRIES_KEPT) tries.clear();
	return tries;
}

const recordKey = (ctx: IPollFunctions) => `socialContentTrigger:${ctx.getNode().id}`;

/** Each trigger family's quiet copy, with hashes of the states it grew from and of itself. */
const quietCopies = new Map<string, { bases: string[]; hash: string; state: Sequenced }>();
/** The states a copy this poll makes may apply on (hashed), per family. */
const basesOfPoll = new WeakMap<IPollFunctions, Map<Family, string[]>>();
/** Triggers whose quiet copy is kept, at most (the oldest written give way). */
const MAX_QUIET_COPIES = 1000;
/** The base of a quiet copy made when nothing was saved yet. */
const NO_STATE = '-';

/** The newest of the node's state and its copies; an activation with nothing saved takes its own. */
function newestState<State extends Sequenced>(
	ctx: IPollFunctions,
	family: Family,
	stored: State | undefined,
	isCurrent: (state: unknown) => state is State,
	activation: boolean,
): State | undefined {
	const record = ctx.getWorkflowStaticData('global')[recordKey(ctx)] as IDataObject | undefined;
	const storedHash = stored === undefined ? NO_STATE : textHash(JSON.stringify(stored));
	const quiet = quietCopies.get(`${triggerKey(ctx)}/${family}`);
	const grewFromStored =
		quiet !== undefined && (quiet.bases.includes(storedHash) || quiet.hash === storedHash);
	const onStored = grewFromStored && !(activation && stored === undefined) ? quiet : undefined;
	let newest = stored;
	// This process's copy first: of the same poll, the record holds less (its newest only).
	for (const copy of [onStored?.state, record?.[family]]) {
		if (!isCurrent(copy)) continue;
		if (newest === undefined || copy.seq > newest.seq) newest = copy;
	}
	if (!basesOfPoll.has(ctx)) basesOfPoll.set(ctx, new Map());
	// A copy this poll makes applies on the state n8n holds now and on those its own base did (n8n
	// may hold either); kept: the first two (before and at an activation) and the newest.
	const bases = [...new Set([...(onStored?.bases ?? []), storedHash])];
	basesOfPoll.get(ctx)!.set(family, bases.length > 3 ? [bases[0], bases[1], storedHash] : bases);
	return newest;
}

/** Saves a poll's state: static data, the activation record at activation, the quiet copy when quiet. */
function saveState<State extends Sequenced>(
	ctx: IPollFunctions,
	family: Family,
	state: State,
	how: { activation: boolean; emitted: boolean; forRecord?: (state: State) => State },
): void {
	ctx.getWorkflowStaticData('node')[family] = state as unknown as IDataObject;
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
	const hash = textHash(text);
	// Also at activation: the durable engine does not commit a quiet activation poll's cursor.
	const bases = basesOfPoll.get(ctx)?.get(family);
	if (!how.emitted && bases !== undefined) {
		quietCopies.set(quietKey, { bases, hash, state: JSON.parse(text) as Sequenced });
		if (quietCopies.size > MAX_QUIET_COPIES)
			quietCopies.delete(quietCopies.keys().next().value as string);
	}
}

/** A family's state for this poll (another account's is none), and the commit saving the next. */
export async function openFamily<State extends Sequenced>(
	run: RunContext<IPollFunctions>,
	family: Family,
	activation: boolean,
	storage: {
		/** Whether a value is a state of the layout this code reads (anything else counts as none). */
		isCurrent: (state: unknown) => state is State;
		/** What the activation record keeps of the state (all of it by default). */
		forRecord?: (state: State) => State;
	},
): Promise<{
	state: State | undefined;
	commitOf: (next: State | undefined) => FamilyPoll['commit'];
}> {
	const ctx = run.n8n;
	const account = await accountOf(run);
	const node = ctx.getWorkflowStaticData('node');
	const stored = node[family];
	const saved = storage.isCurrent(stored) ? stored : undefined;
	let state = newestState(ctx, family, saved, storage.isCurrent, activation);
	// A state that replaces another counts on from it, so it is the newest of the copies.
	const priorSeq = state?.seq ?? 0;
	const parkedKey = `${family}:otherAccount`;
	let park: State | undefined;
	if (state !== undefined && state.account !== account) {
		// One state per account: another account's key for a while, then the right one back,
		// takes the right one's state up again (what finished meanwhile fires).
		const parked = node[parkedKey];
		const mine = [parked, saved].find(
			(candidate): candidate is State =>
				storage.isCurrent(candidate) && candidate.account === account,
		);
		// Parked only as this poll saves its own: a poll that fails keeps both as they were.
		park = state;
		ctx.logger.info(
			mine
				? `Social Content Trigger: the credential reaches the account whose state the trigger kept; it goes on from it for ${family}`
				: `Social Content Trigger: the credential now reaches another account (or another instance); a new starting point is taken for ${family}, and nothing finished before it fires`,
		);
		state = mine;
	}
	return {
		state,
		commitOf: (next) => (emitted) => {
			if (next && park) node[parkedKey] = park as unknown as IDataObject;
			if (next)
				saveState(
					ctx,
					family,
					{ ...next, account, seq: Math.max(next.seq, priorSeq + 1) },
					{ activation, emitted, forRecord: storage.forRecord },
				);
		},
	};
}

/** The account, hashed: instance and organization; else the credential's id (never a secret). */
async function accountOf(run: RunContext<IPollFunctions>): Promise<string> {
	return await run.once('account', async () => {
		const { baseURL } = await run.connectionFor(undefined);
		const organization = readOrganization(
			await apiRequest(run, { method: 'GET', path: '/agents/ping' }),
		);
		if (organization !== undefined) return textHash(`${baseURL}|organization|${organization}`);
		const authentication = run.n8n.getNodeParameter('authentication', 'apiKey') as Authentication;
		const type = credentialTypeOf(authentication) ?? authentication;
		const credential = run.n8n.getNode().credentials?.[type];
		return textHash(`${baseURL}|credential|${type}|${credential?.id ?? credential?.name ?? ''}`);
	});
}

/** Poll contexts that have polled (n8n's classic engine keeps one context per activation). */
const polledContexts = new WeakSet<IPollFunctions>();

/**
 * Whether n8n runs this poll while activating (an error fails the activation): the classic engine's
 * first poll on its context, unless the durable scheduler's ('update', a budget under 5 minutes).
 */
export function isActivationPoll(ctx: IPollFunctions): boolean {
	const first = !polledContexts.has(ctx);
	polledContexts.add(ctx);
	if (!first) return false;
	const budget = givenBudgetMs(ctx);
	const scheduledByDurableEngine =
		ctx.getActivationMode() === 'update' &&
		Number.isFinite(budget) &&
		budget < CLASSIC_POLL_BUDGET_MS;
	return !scheduledByDurableEngine;
}

/** What n8n-core's PollContext answers when the poll has no budget of its own. */
const CLASSIC_POLL_BUDGET_MS = 5 * 60_000;

/** The transport's errors are node errors already; anything else becomes one. */
export function asNodeError(
	ctx: IPollFunctions,
	error: unknown,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error);
}
