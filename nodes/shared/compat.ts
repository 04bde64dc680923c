/**
 * What older n8n lacks, in one place, so the nodes load and behave the same from n8n 1.60 on
 * (the tested range is in README "Compatibility").
 */
import type { NodeConnectionType } from 'n8n-workflow';
import { NodeConnectionTypes, sleep } from 'n8n-workflow';

/**
 * The main connection. `NodeConnectionTypes` exists from n8n-workflow 1.83 (n8n 1.85); reading
 * `.Main` from it on an older n8n throws while the node class is built, and n8n then reports only
 * "Class could not be found". Those versions name the connection by its value.
 */
export const MAIN_CONNECTION: NodeConnectionType =
	(NodeConnectionTypes as typeof NodeConnectionTypes | undefined)?.Main ?? 'main';

/**
 * Waits `ms` milliseconds, or until `signal` aborts (the execution was cancelled), then rejects
 * with the abort's reason. n8n-workflow's `sleep(ms, signal)` honours the signal only from 2.34,
 * and `sleepWithAbort` exists only from 1.100 to 2.33; racing the signal works on all of them.
 */
export async function abortableWait(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw abortReason(signal);
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(abortReason(signal));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms, signal), aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

/** Why a cancelled execution's wait ends: the signal's reason, or a plain one. */
export function abortReason(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');
}
