import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls, in the workflow's static data. Bounded: a high-water
 * mark of finish times, plus the ids finished within SLACK_MS of it (generations can be reported
 * a little out of order) or with no finish time at all, at most MAX_REMEMBERED.
 */
export interface GenerationState {
	/** Layout version, so a later release can migrate. */
	v: 1;
	/** Latest finish time seen (ms since epoch), or null when no generation had one. */
	highWaterMs: number | null;
	/** id → finish time in ms (0 when the service gave none). */
	seen: Record<string, number>;
	/**
	 * Latest finish time among ids forgotten for room (ms), or null. A generation not remembered
	 * but finished at or before it was seen already: bursts larger than the cap do not fire twice.
	 */
	forgottenUpToMs?: number | null;
}

export const SLACK_MS = 15 * 60 * 1000;
export const MAX_REMEMBERED = 2000;

const FINISH_TIME_FIELDS = ['finishedAt', 'completedAt', 'doneAt', 'failedAt', 'updatedAt'];

/** When the generation reached its final status, if the service says; `createdAt` is no help. */
export function finishTimeMs(generation: IDataObject): number | undefined {
	for (const field of FINISH_TIME_FIELDS) {
		const value = generation[field];
		if (value === undefined || value === null || value === '') continue;
		const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(String(value));
		if (Number.isFinite(ms)) return ms;
	}
	return undefined;
}

export function readState(staticData: IDataObject): GenerationState | undefined {
	const state = staticData.generations as GenerationState | undefined;
	return state && state.v === 1 ? state : undefined;
}

export function writeState(staticData: IDataObject, state: GenerationState): void {
	staticData.generations = state as unknown as IDataObject;
}

/** Whether a generation from the list has not fired before. */
export function isNew(state: GenerationState, generation: IDataObject): boolean {
	const id = String(generation.id);
	if (id in state.seen) return false;
	const finished = finishTimeMs(generation);
	if (finished === undefined || state.highWaterMs === null) return true;
	if (state.forgottenUpToMs != null && finished <= state.forgottenUpToMs) return false;
	return finished > state.highWaterMs - SLACK_MS;
}

/** The state after these generations have been seen (fired, or recorded as the baseline). */
export function advance(state: GenerationState | undefined, generations: IDataObject[]): GenerationState {
	const seen: Record<string, number> = { ...(state?.seen ?? {}) };
	let highWaterMs = state?.highWaterMs ?? null;
	for (const generation of generations) {
		const finished = finishTimeMs(generation);
		seen[String(generation.id)] = finished ?? 0;
		if (finished !== undefined && (highWaterMs === null || finished > highWaterMs)) highWaterMs = finished;
	}
	// Forget what the high-water mark alone now covers; past the cap, forget the oldest (ids with no
	// finish time first) and remember up to when, so those are still known as seen.
	const kept = Object.entries(seen)
		.filter(([, finished]) => finished === 0 || highWaterMs === null || finished > highWaterMs - SLACK_MS)
		.sort((a, b) => a[1] - b[1]);
	let forgottenUpToMs = state?.forgottenUpToMs ?? null;
	if (kept.length > MAX_REMEMBERED) {
		const forgotten = kept.splice(0, kept.length - MAX_REMEMBERED);
		const latest = Math.max(...forgotten.map(([, finished]) => finished));
		if (latest > 0) forgottenUpToMs = Math.max(forgottenUpToMs ?? 0, latest);
	}
	return { v: 1, highWaterMs, seen: Object.fromEntries(kept), forgottenUpToMs };
}

/** Oldest first: by finish time where known, else in the order the service listed them, reversed (it lists newest first). */
export function oldestFirst(generations: IDataObject[]): IDataObject[] {
	return generations
		.map((generation, index) => ({ generation, index, finished: finishTimeMs(generation) }))
		.sort((a, b) => {
			if (a.finished !== undefined && b.finished !== undefined && a.finished !== b.finished) return a.finished - b.finished;
			return b.index - a.index;
		})
		.map(({ generation }) => generation);
}
