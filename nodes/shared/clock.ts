import { abortableWait } from './compat';

/**
 * Time as a run sees it: the time now, and waits that a cancelled execution ends. Every run
 * (RunContext) takes one when it starts; in n8n it is the real clock. The tests put one in its
 * place that skips waits, so a poll's budget, a 429's wait or a retry's delay costs no real time
 * there while every decision sees the same times it would in n8n.
 */
export interface Clock {
	now(): number;
	wait(ms: number, signal?: AbortSignal): Promise<void>;
}

export const REAL_CLOCK: Clock = { now: () => Date.now(), wait: abortableWait };

let clockForNewRuns: Clock = REAL_CLOCK;

/** The clock runs started from now on take. */
export function currentClock(): Clock {
	return clockForNewRuns;
}

/** Tests only: the clock the next runs take (no argument: the real one again). */
export function useClock(clock: Clock = REAL_CLOCK): void {
	clockForNewRuns = clock;
}
