import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { generationItem, getGeneration } from '../shared/generations';
import { simplifyGeneration } from '../shared/simplify';
import type { RunContext } from '../shared/transport';
import { keyOf, MAX_ATTEMPTS, type DueGeneration } from './generationState';
import { timeLeft, triesOf } from './pollStore';

/** One poll's requests: they share the connection, the pace and the time budget. */
type PollRun = RunContext<IPollFunctions>;

/** What emitting needs of the trigger's options. */
export interface EmitOptions {
	statuses: string[];
	formats: string[];
	download: boolean;
	simplify: boolean;
}

/** A generation is not started with less time than this left: it stays due. */
export const MIN_TIME_PER_GENERATION_MS = 1500;

/** Emits what is due, oldest first, while there is time; one not read stays due, a try counted. */
export async function emit(
	run: PollRun,
	options: EmitOptions,
	due: DueGeneration[],
	listed = new Map<string, IDataObject>(),
) {
	const items: INodeExecutionData[] = [];
	const fired: string[] = [];
	const left: DueGeneration[] = [];
	const tries = triesOf(run.n8n);
	let firedUpToMs: number | null = null;
	for (const dueOne of due) {
		const [id, status, attempts, finishedMs] = dueOne;
		const generation = listed.get(id) ?? { id, status, outputs: [] };
		// Out of time: the rest waits for the next poll, in the same order, untried.
		if (timeLeft(run) < MIN_TIME_PER_GENERATION_MS) {
			left.push(dueOne);
			continue;
		}
		try {
			// A status this trigger does not listen to is passed over for good.
			if (options.statuses.includes(status)) {
				const detailed = await withDetails(run, generation);
				if (!options.formats.length || options.formats.includes(String(detailed.format)))
					items.push(await generationItem(run.n8n, run, detailed, options));
			}
		} catch (error) {
			// Cut off by the poll's budget, not by the generation: not a try.
			if (timeLeft(run) <= 0) {
				left.push(dueOne);
				continue;
			}
			// Also counted in this process: n8n may not save a poll that emits nothing.
			const made = Math.max(attempts, tries.get(id) ?? 0) + 1;
			if (made < MAX_ATTEMPTS) {
				run.n8n.logger.warn(
					`Social Content Trigger: generation ${id} could not be read (try ${made} of ${MAX_ATTEMPTS}); it is tried again on the next poll: ${messageOf(error)}`,
				);
				left.push(finishedMs === undefined ? [id, status, made] : [id, status, made, finishedMs]);
				tries.set(id, made);
				continue;
			}
			// After the last try it comes out with what failed: never lost silently.
			items.push({
				json: {
					...(options.simplify ? simplifyGeneration(generation) : generation),
					error: `Could not read this generation's ${options.download ? 'details or outputs' : 'details'} after ${made} tries: ${messageOf(error)}`,
				},
			});
		}
		fired.push(keyOf(id, status));
		tries.delete(id);
		// Its list's finish time, kept while due, moves the mark also when no list shows it as it
		// fires: else a later read takes it for new.
		if (typeof finishedMs === 'number')
			firedUpToMs = Math.max(firedUpToMs ?? finishedMs, finishedMs);
	}
	return { items, fired, due: left, firedUpToMs };
}

/** List entries may leave out outputs or format (the spec gives outputs "on read"): read the generation then. */
export async function withDetails(run: PollRun, generation: IDataObject): Promise<IDataObject> {
	const outputs = (generation.outputs as unknown[] | undefined) ?? [];
	if (generation.status === 'failed' && generation.format !== undefined) return generation;
	if (outputs.length > 0 && generation.format !== undefined) return generation;
	const details = await getGeneration(run, String(generation.id));
	return {
		...generation,
		...details,
		outputs: (details.outputs as unknown[]).length ? details.outputs : outputs,
	};
}

export const messageOf = (error: unknown): string => (error as Error)?.message ?? String(error);
