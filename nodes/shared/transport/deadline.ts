import { NodeApiError } from 'n8n-workflow';

import type { ErrorContext, RequestLine } from './errors';
import type { RunContext } from './runContext';

/**
 * A request given up because the run's deadline (a tool call's bound, a poll's budget) left no
 * time for it, its wait or its answer: the caller may answer with what it has instead of failing.
 */
export interface OutOfTime {
	/** The service did nothing for it: it was not sent, or refused with a 429. */
	nothingDone: boolean;
	/** How long the service asked to wait before the next request (a 429), when it said. */
	retryInMs?: number;
}

const givenUp = new WeakMap<object, OutOfTime>();

/** Marks `error` as thrown for the deadline (see OutOfTime); returns it. */
export function forTime<E extends object>(error: E, why: OutOfTime): E {
	givenUp.set(error, why);
	return error;
}

/** Why `error` was thrown for the deadline; undefined when it was not. */
export function outOfTime(error: unknown): OutOfTime | undefined {
	return typeof error === 'object' && error !== null ? givenUp.get(error) : undefined;
}

/** What is left of the run's time (ms); Infinity when it has no deadline. */
export function timeLeftMs(run: RunContext): number {
	return run.deadlineMs === undefined ? Infinity : run.deadlineMs - run.clock.now();
}

/** A tool call's request that its bound left no time to send, or to hold for the run's pace. */
export function noTimeLeftError(at: ErrorContext, request: RequestLine, boundMs: number) {
	const error = new NodeApiError(
		at.node,
		{ request: `${request.method} ${request.path}` },
		{
			message: `No time left in this call (${Math.round(boundMs / 1000)} s at most) to send ${request.method} ${request.path}; it was not sent`,
			description:
				'A tool call answers within its bound, since its caller gives up soon after. Nothing was done by this request: make the call again.',
			itemIndex: at.itemIndex,
		},
	);
	return forTime(error, { nothingDone: true });
}
