import { currentClock, type Clock } from '../clock';
import { readConnection, type ApiContext, type Connection } from './connection';
import { RequestPacer } from './pacing';
import { RetryAfterUnit } from './rateLimit';

export type { ApiContext };

/**
 * What the requests of one run share: the connection, the pace and the unit of waits learned from
 * 429s, values read once (the channel list). One per node execution, trigger poll, dropdown load.
 */
export class RunContext<Functions extends ApiContext = ApiContext> {
	/** The run's time: every wait and deadline of its requests is read on it. */
	readonly clock: Clock = currentClock();
	readonly pacer = new RequestPacer();
	readonly retryAfterUnit = new RetryAfterUnit();
	private readonly onceValues = new Map<string, Promise<unknown>>();
	/** When the run must be over (ms since epoch), if it has a time budget (a trigger poll, a tool call). */
	deadlineMs?: number;
	/** A tool call's bound (ms), when the run is one: nothing is sent or waited past it, and a refusal names it. */
	callBoundMs?: number;
	/** What last paused the run (a 429's body, or a used-up quota's limit): what items that cannot wait fail with. */
	lastRefusal?: unknown;
	/** The service's clock (its `Date` header, ms) at its last answer: the trigger reads the service's time. */
	serviceDateMs?: number;

	constructor(readonly n8n: Functions) {}

	/** The run answers a tool call: all of it, waits and requests, ends within `boundMs` from now. */
	bindToCall(boundMs: number): void {
		this.callBoundMs = boundMs;
		this.deadlineMs = this.clock.now() + boundMs;
	}

	/** The credential's connection, read on first use; a failed read is tried again next time. */
	async connectionFor(itemIndex: number | undefined): Promise<Connection> {
		return await this.once('connection', async () => await readConnection(this.n8n, itemIndex));
	}

	/** A value read once per run however many items need it; a failed read is tried again. */
	async once<T>(key: string, load: () => Promise<T>): Promise<T> {
		let value = this.onceValues.get(key) as Promise<T> | undefined;
		if (!value) {
			value = load();
			this.onceValues.set(key, value);
			value.catch(() => this.onceValues.delete(key));
		}
		return await value;
	}
}
