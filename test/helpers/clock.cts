/**
 * The clock of the unit and integration tests (test/skipWaits.cts): real time, except that a wait
 * is skipped. Time jumps to the end of the earliest wait once what is under way has had its turn
 * (a reply, another item's step), so waits end in their order and concurrent ones overlap as they
 * would; work still takes the real time it takes. `now()` is the real time plus all the time skipped, so it never goes back.
 */
import { currentClock, useClock, type Clock } from '../../nodes/shared/clock';
import { abortReason } from '../../nodes/shared/compat';

interface Waiting {
	atMs: number;
	order: number;
	done: () => void;
}

export class SkippingClock implements Clock {
	/** All the time skipped so far. */
	skippedMs = 0;
	private waiting: Waiting[] = [];
	private order = 0;
	private turnTaken = false;

	now(): number {
		return Date.now() + this.skippedMs;
	}

	async wait(ms: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) throw abortReason(signal);
		await new Promise<void>((resolve, reject) => {
			const entry: Waiting = {
				atMs: this.now() + Math.max(0, ms),
				order: this.order++,
				done: resolve,
			};
			const onAbort = () => {
				this.waiting = this.waiting.filter((other) => other !== entry);
				reject(abortReason(signal!));
			};
			entry.done = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waiting.push(entry);
			this.takeTurn();
		});
	}

	/** After what is under way has run (immediates, then a timer), the earliest waits end. */
	private takeTurn(): void {
		if (this.turnTaken) return;
		this.turnTaken = true;
		setImmediate(() =>
			setTimeout(() => {
				this.turnTaken = false;
				this.endEarliest();
			}, 0),
		);
	}

	private endEarliest(): void {
		if (!this.waiting.length) return;
		this.waiting.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
		const aheadMs = this.waiting[0].atMs - this.now();
		if (aheadMs > 0) this.skippedMs += aheadMs;
		const now = this.now();
		const due = this.waiting.filter((entry) => entry.atMs <= now);
		this.waiting = this.waiting.filter((entry) => entry.atMs > now);
		for (const entry of due) entry.done();
		if (this.waiting.length) this.takeTurn();
	}
}

/** Now, on the clock runs take (in unit tests, the skipping one). */
export function clockNow(): number {
	return currentClock().now();
}

export { currentClock, useClock };
