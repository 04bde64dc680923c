import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { generationItem, getGeneration, normaliseGeneration } from '../SocialContent/actions/shared/generations';
import { simplifyGeneration } from '../SocialContent/actions/shared/simplify';
import { walkPages } from '../SocialContent/actions/shared/paging';
import { RunContext } from '../SocialContent/transport';

/** One poll's requests: they share the connection and the pace. */
type PollRun = RunContext<IPollFunctions>;
import {
	baseline,
	finishTimeMs,
	fromV1,
	isPending,
	MAX_ATTEMPTS,
	MAX_OWED,
	plan,
	readState,
	settle,
	writeState,
	type GenerationState,
	type ListReading,
	type OwedGeneration,
} from './generationState';

export interface TriggerOptions {
	/** Final statuses that fire: `done`, `failed`. */
	statuses: string[];
	/** Format ids that fire; empty means all. */
	formats: string[];
	download: boolean;
	/** Output simplified generations (see simplifyGeneration). */
	simplify: boolean;
}

/** Pages read for the baseline: enough to find the generations still queued or running. */
const BASELINE_PAGES = 5;
/** Characters of an error kept in the state for a generation that is owed. */
const MAX_ERROR_LENGTH = 200;
/** Pending generations the list did not show that are asked for by id, per poll. */
const DETAIL_READS_PER_POLL = 10;

/**
 * One poll: read the list, decide what is new (see generationState.ts), emit it oldest first.
 * Nothing in the state moves unless the list was read; a generation whose details or outputs
 * cannot be read is retried on later polls, then emitted with an `error` field.
 */
export async function pollGenerations(ctx: IPollFunctions, options: TriggerOptions): Promise<INodeExecutionData[]> {
	// One poll is one run: its requests share the connection and the pace.
	const run = new RunContext(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const state = readState(staticData);
	if (!state) {
		// First activation: what is already finished is the baseline, not an event.
		writeState(staticData, baseline(await readGenerations(run, () => false, BASELINE_PAGES)));
		return [];
	}
	if (state.v === 1) {
		const migrated = fromV1(state, await readGenerations(run, () => false, BASELINE_PAGES));
		return await emit(run, options, { ...migrated, state: migrated.next }, staticData);
	}
	const head = new Set(state.head);
	// Read on until a head id shows (with no head, to the end: every finished generation is new).
	const reading = await readGenerations(run, (page) => !page.some((entry) => !isPending(entry) && head.has(String(entry.id))));
	const decided = plan(state, reading);
	if (decided.lostBearings) {
		ctx.logger.warn(
			'Social Content Trigger: none of the generations it remembered are in the list any more; unknown ones without a finish time are not fired, to avoid firing old ones again',
		);
	}
	return await emit(run, options, { ...decided, state }, staticData);
}

/** The list, newest pages first, while `readOn(page)` says so (and up to `maxPages`). */
async function readGenerations(
	run: PollRun,
	readOn: (page: IDataObject[]) => boolean,
	maxPages?: number,
): Promise<ListReading> {
	const entries: IDataObject[] = [];
	await walkPages(run, '/studio/generations', { listKeys: ['generations'], maxPages }, (list) => {
		const page = list.map(normaliseGeneration).filter((entry) => entry.id !== undefined && entry.id !== '');
		entries.push(...page);
		return readOn(page);
	});
	return { entries };
}

async function emit(
	run: PollRun,
	options: TriggerOptions,
	decided: ReturnType<typeof plan> & { state: GenerationState },
	staticData: IDataObject,
): Promise<INodeExecutionData[]> {
	const { finished, resolvedPending, checked } = await askForUnseen(run, decided.unseenPending);
	const items: INodeExecutionData[] = [];
	const fired: string[] = [];
	const owed: OwedGeneration[] = [];

	const listed = new Map([...decided.finished, ...finished].map((entry) => [String(entry.id), entry]));
	const due: Array<{ generation: IDataObject; attempts: number }> = [
		// Owed ones first: they finished before anything new.
		...decided.state.owed.map((entry) => ({ generation: listed.get(entry.id) ?? { id: entry.id, status: entry.status, outputs: [] }, attempts: entry.attempts })),
		...[...decided.finished, ...finished].filter((entry) => !decided.state.owed.some((o) => o.id === entry.id)).map((generation) => ({ generation, attempts: 0 })),
	];
	for (const { generation, attempts } of due) {
		if (!options.statuses.includes(String(generation.status))) continue;
		try {
			const detailed = await withDetails(run, generation);
			if (options.formats.length && !options.formats.includes(String(detailed.format))) continue;
			items.push(await generationItem(run.n8n, run, detailed, options));
			fired.push(String(generation.id));
		} catch (error) {
			const failure = { id: String(generation.id), status: String(generation.status), attempts: attempts + 1, error: messageOf(error).slice(0, MAX_ERROR_LENGTH) };
			if (failure.attempts < MAX_ATTEMPTS && owed.length < MAX_OWED) {
				run.n8n.logger.warn(`Social Content Trigger: generation ${failure.id} could not be read (try ${failure.attempts} of ${MAX_ATTEMPTS}); it is tried again on the next poll: ${failure.error}`);
				owed.push(failure);
				continue;
			}
			// Never lost silently: after the last try it comes out with what failed, so the workflow can decide.
			items.push({ json: { ...(options.simplify ? simplifyGeneration(generation) : generation), error: `Could not read this generation's ${options.download ? 'details or outputs' : 'details'} after ${failure.attempts} ${failure.attempts === 1 ? 'try' : 'tries'}: ${failure.error}` } });
			fired.push(failure.id);
		}
	}

	const next = settle(decided.next, { fired, owed, resolvedPending });
	// Pending ids asked for this time go to the back of the line.
	next.pending = [...next.pending.filter((id) => !checked.includes(id)), ...next.pending.filter((id) => checked.includes(id))];
	writeState(staticData, next);
	return items;
}

/**
 * Pending generations the list did not show (a later page, or a list that is cut short), asked
 * for by id, a few per poll. A 404 means the generation is gone: it can never finish.
 */
async function askForUnseen(
	run: PollRun,
	unseen: string[],
): Promise<{ finished: IDataObject[]; resolvedPending: string[]; checked: string[] }> {
	const finished: IDataObject[] = [];
	const resolvedPending: string[] = [];
	const checked = unseen.slice(0, DETAIL_READS_PER_POLL);
	for (const id of checked) {
		try {
			const generation = await getGeneration(run, id);
			if (isPending(generation)) continue;
			finished.push(generation);
			resolvedPending.push(id);
		} catch (error) {
			if (String((error as { httpCode?: unknown }).httpCode) === '404') resolvedPending.push(id);
			else run.n8n.logger.warn(`Social Content Trigger: could not check generation ${id}; it is checked again later: ${messageOf(error)}`);
		}
	}
	return { finished, resolvedPending, checked };
}

/** List entries may leave out outputs or format (the spec gives outputs "on read"): read the generation then. */
async function withDetails(run: PollRun, generation: IDataObject): Promise<IDataObject> {
	const outputs = (generation.outputs as unknown[] | undefined) ?? [];
	if (generation.status === 'failed' && generation.format !== undefined) return generation;
	if (outputs.length > 0 && generation.format !== undefined) return generation;
	const details = await getGeneration(run, String(generation.id));
	return { ...generation, ...details, outputs: (details.outputs as unknown[]).length ? details.outputs : outputs };
}

/** Fetch Test Event: the latest finished generation that matches, read as a poll would; no state. */
export async function latestGeneration(ctx: IPollFunctions, options: TriggerOptions): Promise<INodeExecutionData | undefined> {
	const run = new RunContext(ctx);
	const { entries } = await readGenerations(run, () => false, 1);
	const matching = entries.filter((entry) => options.statuses.includes(String(entry.status)));
	const latestFirst = matching.every((entry) => finishTimeMs(entry) !== undefined)
		? [...matching].sort((a, b) => (finishTimeMs(b) ?? 0) - (finishTimeMs(a) ?? 0))
		: matching;
	for (const generation of latestFirst) {
		const detailed = await withDetails(run, generation);
		if (!options.formats.length || options.formats.includes(String(detailed.format))) {
			return await generationItem(run.n8n, run, detailed, options);
		}
	}
	return undefined;
}

function messageOf(error: unknown): string {
	return (error as Error)?.message ?? String(error);
}
