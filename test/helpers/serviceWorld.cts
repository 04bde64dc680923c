/**
 * A scripted service world for the generation trigger (issue 67): the studio's generations as a
 * busy account makes them, served through nock on the tests' skipping clock, and a driver that
 * runs n8n's poll engines (test/helpers/pollEngines.cts) over it. The world keeps three logs an
 * oracle judges from (test/helpers/worldOracle.cts), none of them the trigger's: what happened to
 * each generation (its outcomes, on the service's clock and on n8n's), what the service SERVED
 * (each list answer: when, which entries), and what n8n did (polls, items received).
 *
 * Every event, answer and poll takes a number from one sequence (`seq`), so "before" and "after"
 * are causal order, never a comparison of clocks that may disagree.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { clockNow, currentClock } from './clock.cjs';
import { API_KEY, API_PATH, APP_URL, apiKeyCredentials } from './fixtures.cjs';
import { SimulatedN8n, type Engine } from './pollEngines.cjs';

export const GENERATIONS_PATH = `${API_PATH}/studio/generations`;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type Status = 'queued' | 'running' | 'done' | 'failed';
export type FinalStatus = 'done' | 'failed';
/** newest first by creation / finish / last update; oldest first by creation; by a UUID-like key. */
export type Order = 'creation' | 'finish' | 'update' | 'oldestFirst' | 'none';
/** one array; `{generations, page, pages}`; `{generations, page, hasMore}`; `{generations, nextCursor}`. */
export type Paging = 'unpaged' | 'pages' | 'hasMore' | 'cursor';

export interface WorldShape {
	order: Order;
	paging: Paging;
	/** Entries a page (not for 'unpaged'). */
	pageSize?: number;
	/** Each list answer takes this long, on the virtual clock. */
	pageLatencyMs?: number;
	/** Each numbered page repeats this many entries of the page before it. */
	pageOverlap?: number;
	/** The list shows only its newest N (by its own sort key). */
	newestN?: number;
	/** Times written as naive ISO (no zone; UTC meant), else ISO with Z. */
	naiveTimes?: boolean;
	/** The time fields list entries carry (all three unless said). */
	timeFields?: Array<'createdAt' | 'updatedAt' | 'finishedAt'>;
}

/** One finish of a generation: what the service wrote, and when it really happened. */
export interface Outcome {
	status: FinalStatus;
	/** The finish time the service wrote (`finishedAt`), on its (worker's) clock. */
	finishedMs: number;
	/** When it happened on n8n's clock. */
	n8nMs: number;
	seq: number;
}

export interface Generation {
	id: string;
	account: string;
	status: Status;
	createdMs: number;
	updatedMs: number;
	finishedMs?: number;
	/** Every finish, oldest first. */
	outcomes: Outcome[];
	createdSeq: number;
	deletedSeq?: number;
	/** The latest time (seq) a list answer was worked out without it though it was there (a list cut to its newest N). */
	outOfViewSeq?: number;
	/** When it was run again (seq of each). */
	rerunSeqs: number[];
	/** The sort key of 'none': a UUID-like hash of the id. */
	uuid: string;
}

export interface ServedEntry {
	id: string;
	status: Status;
	finishedMs?: number;
}

/** One answer to a list request, as it left the service. */
export interface ServedAnswer {
	seq: number;
	n8nMs: number;
	serviceMs: number;
	account: string;
	uri: string;
	httpStatus: number;
	/** The request asked for the list's first page (no page number past 1, no cursor). */
	firstPage: boolean;
	/** The answer said there is no page after it (or the list is not paged). */
	lastPage: boolean;
	entries: ServedEntry[];
}

export interface PollRecord {
	index: number;
	kind: 'activation' | 'poll';
	startSeq: number;
	endSeq: number;
	startMs: number;
	endMs: number;
	fired: FiredItem[];
	error?: string;
}

export interface FiredItem {
	id: string;
	status: string;
	/** The finish time the item carries (the service's `finishedAt`), when it gives one. */
	finishedMs?: number;
	pollIndex: number;
	seq: number;
}

export interface WorldEvent {
	seq: number;
	n8nMs: number;
	kind: 'create' | 'finish' | 'rerun' | 'start' | 'touch' | 'delete' | 'account';
	ids: string[];
}

/** FNV-1a, as hex: a stable UUID-like key for the list in no time order. */
function uuidLike(id: string): string {
	let hash = 0x811c9dc5;
	let second = 0x01000193;
	for (let i = 0; i < id.length; i++) {
		hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
		second = Math.imul(second ^ id.charCodeAt(i), 0x85ebca6b) >>> 0;
	}
	return `${hash.toString(16).padStart(8, '0')}-${second.toString(16).padStart(8, '0')}`;
}

/** Rate limit of list reads: `perMinute` a minute of the service's clock (fixed windows). */
export interface ListRateLimit {
	perMinute: number;
}

let worldsMade = 0;

export class ServiceWorld {
	/** All generations of all accounts, by id (ids are unique across accounts). */
	readonly generations = new Map<string, Generation>();
	readonly events: WorldEvent[] = [];
	readonly served: ServedAnswer[] = [];
	readonly polls: PollRecord[] = [];
	readonly items: FiredItem[] = [];
	/** The account the workflow was activated for (one per world: n8n's process memory is shared). */
	readonly homeAccount = `org_${++worldsMade}`;
	/** The account the credential's key belongs to now (GET /agents/ping answers it). */
	account = this.homeAccount;
	/** The service's clock minus n8n's (ms): -20 min is a service 20 minutes behind. */
	serviceSkewMs = 0;
	/** List requests so far (counting every one, failed ones too). */
	listRequests = 0;
	/** List requests (1-based numbers) answered with a 429 once. */
	readonly failRequests = new Map<number, number>();
	/** Page numbers (1-based) that always answer 500. */
	readonly failingPages = new Set<number>();
	rateLimit?: ListRateLimit;
	/** The Date header's clock minus the service's (ms): a front end whose clock is off its workers'. */
	dateOffsetMs = 0;
	/** Called as each list request (1-based count) arrives, before it is answered: what happens meanwhile. */
	beforeAnswer?: (listRequest: number) => void;
	/** The time the Date header gives on an answer (after this many list requests). */
	dateHeaderAt = (_listRequests: number, serviceMs: number): number =>
		serviceMs + this.dateOffsetMs;
	/** Answers (list requests, 1-based, or every one when true) sent with no Date header. */
	omitDate: boolean | ((listRequest: number) => boolean) = false;
	/** How the status is written in list and detail answers (the spec's lower case unless set). */
	statusText: (status: Status) => string = (status) => status;
	/** How a finish time is written (ISO unless set): epoch seconds or milliseconds, say. */
	finishText?: (ms: number, id: string) => string | number | undefined;
	private rateWindow = { start: -1, count: 0 };
	private seqCounter = 0;
	private lastN8nMs = 0;
	private sortedCache = new Map<string, Generation[]>();
	private readonly startMs = clockNow();

	constructor(public shape: WorldShape) {}

	nextSeq(): number {
		return ++this.seqCounter;
	}

	get seq(): number {
		return this.seqCounter;
	}

	/** n8n's time for an event: strictly increasing, never behind the clock. */
	private eventN8nMs(): number {
		this.lastN8nMs = Math.max(this.lastN8nMs + 1, clockNow());
		return this.lastN8nMs;
	}

	serviceNow(): number {
		return clockNow() + this.serviceSkewMs;
	}

	private log(kind: WorldEvent['kind'], ids: string[], n8nMs = this.eventN8nMs()): WorldEvent {
		const event = { seq: this.nextSeq(), n8nMs, kind, ids };
		this.events.push(event);
		this.sortedCache.clear();
		return event;
	}

	/** Lets `ms` pass on the virtual clock (and catches the clock up with events stamped ahead). */
	async advance(ms = 0): Promise<void> {
		const target = Math.max(clockNow() + ms, this.lastN8nMs + 1);
		const ahead = target - clockNow();
		if (ahead > 0) await currentClock().wait(ahead);
	}

	get(id: string): Generation {
		const generation = this.generations.get(id);
		if (!generation) throw new Error(`no generation ${id}`);
		return generation;
	}

	create(id: string, account = this.account): Generation {
		if (this.generations.has(id)) throw new Error(`generation ${id} exists`);
		const event = this.log('create', [id]);
		const ms = event.n8nMs + this.serviceSkewMs;
		const generation: Generation = {
			id,
			account,
			status: 'queued',
			createdMs: ms,
			updatedMs: ms,
			outcomes: [],
			createdSeq: event.seq,
			rerunSeqs: [],
			uuid: uuidLike(id),
		};
		this.generations.set(id, generation);
		return generation;
	}

	start(id: string): void {
		const generation = this.get(id);
		const event = this.log('start', [id]);
		generation.status = 'running';
		generation.updatedMs = event.n8nMs + this.serviceSkewMs;
	}

	/**
	 * It finishes. `workerSkewMs`: the worker's clock is that far off the service's (its finish
	 * and update times); `finishedMs`: the service writes exactly this finish time.
	 */
	finish(
		id: string,
		status: FinalStatus = 'done',
		options: { workerSkewMs?: number; finishedMs?: number } = {},
	): Outcome {
		const generation = this.get(id);
		if (generation.deletedSeq !== undefined) throw new Error(`${id} is deleted`);
		const event = this.log('finish', [id]);
		const stamp =
			options.finishedMs ?? event.n8nMs + this.serviceSkewMs + (options.workerSkewMs ?? 0);
		generation.status = status;
		generation.finishedMs = stamp;
		generation.updatedMs = stamp;
		const outcome: Outcome = { status, finishedMs: stamp, n8nMs: event.n8nMs, seq: event.seq };
		generation.outcomes.push(outcome);
		return outcome;
	}

	createDone(id: string, status: FinalStatus = 'done', workerSkewMs = 0): Generation {
		const generation = this.create(id);
		this.finish(id, status, { workerSkewMs });
		return generation;
	}

	/** `count` created and finished, `prefix0`…; their times 1 ms apart (the clock is caught up after). */
	async createDoneMany(
		prefix: string,
		count: number,
		status: FinalStatus = 'done',
	): Promise<string[]> {
		const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
		for (const id of ids) this.createDone(id, status);
		await this.advance();
		return ids;
	}

	/** The service rewrites a finish time it already showed (no new run; status kept). */
	rewriteFinish(id: string, finishedMs: number): void {
		const generation = this.get(id);
		this.log('touch', [id]);
		generation.finishedMs = finishedMs;
		generation.updatedMs = finishedMs;
	}

	/** Run again under its id: queued (no finish time), then `start` and `finish` again. */
	rerun(id: string): void {
		const generation = this.get(id);
		const event = this.log('rerun', [id]);
		generation.status = 'queued';
		generation.rerunSeqs.push(event.seq);
		generation.finishedMs = undefined;
		generation.updatedMs = event.n8nMs + this.serviceSkewMs;
	}

	/** A bulk edit (tags, metadata): `updatedAt` of these set to now; status and finish kept. */
	touch(ids: string[]): void {
		const event = this.log('touch', ids);
		for (const id of ids) this.get(id).updatedMs = event.n8nMs + this.serviceSkewMs;
	}

	delete(ids: string[]): void {
		const event = this.log('delete', ids);
		for (const id of ids) this.get(id).deletedSeq = event.seq;
	}

	/** A retention job: the oldest `count` (by creation) of the account deleted. */
	deleteOldest(count: number, account = this.account): string[] {
		const ids = this.present(account)
			.sort((a, b) => a.createdSeq - b.createdSeq)
			.slice(0, count)
			.map((generation) => generation.id);
		this.delete(ids);
		return ids;
	}

	/** The credential's key now belongs to this account (another workspace's key pasted, or put back). */
	useAccount(account: string): void {
		this.account = account;
		this.log('account', [account]);
	}

	present(account = this.account): Generation[] {
		return [...this.generations.values()].filter(
			(generation) => generation.account === account && generation.deletedSeq === undefined,
		);
	}

	/** The list as the service shows it to this account now (cut to its newest N when it is). */
	listed(account = this.account): Generation[] {
		const cached = this.sortedCache.get(account);
		if (cached) return cached;
		const rows = this.present(account);
		const byNewest = (key: (g: Generation) => number) =>
			rows.sort((a, b) => key(b) - key(a) || b.createdSeq - a.createdSeq);
		const { order, newestN } = this.shape;
		if (order === 'finish') byNewest((g) => g.finishedMs ?? Infinity);
		else if (order === 'update') byNewest((g) => g.updatedMs);
		else byNewest((g) => g.createdMs);
		let shown = rows;
		if (newestN !== undefined) {
			shown = rows.slice(0, newestN);
			for (const cut of rows.slice(newestN)) cut.outOfViewSeq = this.seq + 0.5;
		}
		if (order === 'oldestFirst') shown = shown.reverse();
		if (order === 'none') shown = shown.sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
		this.sortedCache.set(account, shown);
		return shown;
	}

	private get showsFinish(): boolean {
		return (this.shape.timeFields ?? ['finishedAt']).includes('finishedAt');
	}

	private time(ms: number): string {
		const iso = new Date(ms).toISOString();
		return this.shape.naiveTimes ? iso.slice(0, -1) : iso;
	}

	private record(generation: Generation): IDataObject {
		const record: IDataObject = {
			id: generation.id,
			status: this.statusText(generation.status),
			format: 'slideshow',
			credits: 3,
			outputs:
				generation.status === 'done'
					? [{ id: `m_${generation.id}`, path: `/uploads/${generation.id}.png` }]
					: [],
		};
		const fields = this.shape.timeFields ?? ['createdAt', 'updatedAt', 'finishedAt'];
		if (fields.includes('createdAt')) record.createdAt = this.time(generation.createdMs);
		if (fields.includes('updatedAt')) record.updatedAt = this.time(generation.updatedMs);
		if (fields.includes('finishedAt') && generation.finishedMs !== undefined)
			record.finishedAt = this.finishText
				? this.finishText(generation.finishedMs, generation.id)
				: this.time(generation.finishedMs);
		return record;
	}

	private dateHeader(): Record<string, string> {
		const omit =
			typeof this.omitDate === 'function' ? this.omitDate(this.listRequests) : this.omitDate;
		if (omit) return {};
		return {
			Date: new Date(this.dateHeaderAt(this.listRequests, this.serviceNow())).toUTCString(),
		};
	}

	/** A list request's failure, if one is due: the k-th request, a rate limit, a bad page. */
	private failure(page: number): [number, IDataObject, Record<string, string>] | undefined {
		const retryAfter = this.failRequests.get(this.listRequests);
		if (retryAfter !== undefined) return this.tooMany(retryAfter, 1);
		if (this.rateLimit) {
			// Windows of a minute from the world's start (not the wall clock's minutes): the same each run.
			const now = this.serviceNow();
			const start = this.startMs + Math.floor((now - this.startMs) / MINUTE) * MINUTE;
			if (this.rateWindow.start !== start) this.rateWindow = { start, count: 0 };
			if (++this.rateWindow.count > this.rateLimit.perMinute)
				return this.tooMany(Math.ceil((start + MINUTE - now) / 1000), this.rateLimit.perMinute);
		}
		if (this.failingPages.has(page)) return [500, { msg: 'internal error' }, this.dateHeader()];
		return undefined;
	}

	private tooMany(
		retryAfterS: number,
		limit: number,
	): [number, IDataObject, Record<string, string>] {
		return [
			429,
			{ code: 'RATE_LIMITED', bucket: 'studio', limit, retryAfter: retryAfterS },
			{ ...this.dateHeader(), 'Retry-After': String(retryAfterS) },
		];
	}

	/** Where a page starts in the list, by number or by cursor (the cursor names the last entry served). */
	private pageStart(rows: Generation[], query: URLSearchParams): { start: number; page: number } {
		const size = this.shape.pageSize ?? 20;
		const cursor = query.get('cursor');
		if (this.shape.paging === 'cursor' && cursor) {
			const [lastId, offset] = Buffer.from(cursor, 'base64url').toString().split('|');
			const at = rows.findIndex((generation) => generation.id === lastId);
			// Keyset: after the entry it names; an entry gone, from the offset it stood at.
			const start = at >= 0 ? at + 1 : Math.min(Number(offset), rows.length);
			return { start, page: Math.floor(start / size) + 1 };
		}
		const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
		return { start: (page - 1) * (size - (this.shape.pageOverlap ?? 0)), page };
	}

	/** The answer to one list request (logged as served). */
	answerList(uri: string): [number, unknown, Record<string, string>] {
		this.listRequests++;
		this.beforeAnswer?.(this.listRequests);
		const query = new URL(uri, APP_URL).searchParams;
		const account = this.account;
		const statusFilter = query.get('status');
		const all = this.listed(account);
		const rows = statusFilter ? all.filter((g) => g.status === statusFilter) : all;
		const firstPage = !query.get('cursor') && Number(query.get('page') ?? 1) <= 1;
		const { start, page } = this.pageStart(rows, query);
		const logAnswer = (httpStatus: number, shown: Generation[], lastPage: boolean) =>
			this.served.push({
				seq: this.nextSeq(),
				n8nMs: clockNow(),
				serviceMs: this.serviceNow(),
				account,
				uri,
				httpStatus,
				firstPage,
				lastPage,
				entries: shown.map((g) => ({
					id: g.id,
					status: g.status,
					finishedMs: this.showsFinish ? g.finishedMs : undefined,
				})),
			});
		const failure = this.failure(page);
		if (failure) {
			logAnswer(failure[0], [], false);
			return failure;
		}
		if (this.shape.paging === 'unpaged') {
			logAnswer(200, rows, true);
			return [200, rows.map((g) => this.record(g)), this.dateHeader()];
		}
		const size = this.shape.pageSize ?? 20;
		const shown = rows.slice(start, start + size);
		const more = start + size < rows.length;
		logAnswer(200, shown, !more);
		const generations = shown.map((g) => this.record(g));
		const body: IDataObject =
			this.shape.paging === 'pages'
				? { generations, page, pages: Math.max(1, Math.ceil(rows.length / size)) }
				: this.shape.paging === 'hasMore'
					? { generations, page, hasMore: more }
					: { generations, nextCursor: more ? this.cursorAfter(shown, start) : null };
		return [200, body, this.dateHeader()];
	}

	private cursorAfter(shown: Generation[], start: number): string {
		const last = shown[shown.length - 1];
		return Buffer.from(`${last.id}|${start + shown.length}`).toString('base64url');
	}

	/** nock interceptors: the ping, the list (after its latency), reads by id. */
	serve(): void {
		nock(APP_URL)
			.get(`${API_PATH}/agents/ping`)
			.reply(() => [200, { ok: true, organization: this.account, tools: [] }, this.dateHeader()])
			.persist();
		nock(APP_URL, { reqheaders: { authorization: API_KEY } })
			.replyContentLength()
			.get(GENERATIONS_PATH)
			.query(true)
			.reply((uri, _body, callback) => {
				void currentClock()
					.wait(this.shape.pageLatencyMs ?? 0)
					.then(() => callback(null, this.answerList(uri) as unknown as [number, string]));
			})
			.persist();
		nock(APP_URL, { reqheaders: { authorization: API_KEY } })
			.replyContentLength()
			.get(new RegExp(`^${GENERATIONS_PATH}/[^/?]+$`))
			.reply((uri) => {
				const id = decodeURIComponent(uri.split('/').pop() ?? '');
				const generation = this.generations.get(id);
				if (
					!generation ||
					generation.deletedSeq !== undefined ||
					generation.account !== this.account
				)
					return [404, { msg: 'generation not found' }, this.dateHeader()];
				return [200, this.record(generation), this.dateHeader()];
			})
			.persist();
	}
}

/** Anything that polls the world and emits items: n8n's engines over the real trigger, or a fake. */
export interface Poller {
	activate(): Promise<INodeExecutionData[][] | null>;
	poll(): Promise<INodeExecutionData[][] | null>;
	deactivate(): void;
	/** n8n stops and starts again (the workflow stays active). */
	restart?(): Promise<INodeExecutionData[][] | null>;
	/** Errors so far (failed polls and activations), to tell a failed poll. */
	errorCount(): number;
	lastError(): string | undefined;
}

export function enginePoller(
	engine: Engine,
	parameters: INodeParameters = { events: ['done'] },
): Poller & { n8n: SimulatedN8n } {
	const n8n = new SimulatedN8n(engine, parameters, apiKeyCredentials);
	const errors = () => [...n8n.activationErrors, ...n8n.pollErrors];
	return {
		n8n,
		activate: async () => await n8n.activate(),
		poll: async () => await n8n.poll(),
		deactivate: () => n8n.deactivate(),
		restart: async () => await n8n.restart(),
		errorCount: () => errors().length,
		lastError: () => errors().pop()?.message,
	};
}

/**
 * n8n's schedule over the world: a poll each `intervalMs` (the next tick after the last poll
 * ended), each logged with what it emitted.
 */
export class Schedule {
	private nextTickMs?: number;
	active = false;

	constructor(
		readonly world: ServiceWorld,
		readonly poller: Poller,
		readonly intervalMs = MINUTE,
	) {}

	async activate(): Promise<FiredItem[]> {
		this.active = true;
		return await this.run('activation', async () => await this.poller.activate());
	}

	deactivate(): void {
		this.active = false;
		this.poller.deactivate();
		this.nextTickMs = undefined;
	}

	/** n8n restarts: the engine activates the workflow again ('init'), as it does. */
	async restart(): Promise<FiredItem[]> {
		const restart = this.poller.restart?.bind(this.poller);
		if (!restart) throw new Error('this poller cannot restart');
		this.nextTickMs = undefined;
		return await this.run('activation', restart);
	}

	async poll(): Promise<FiredItem[]> {
		if (!this.active) throw new Error('the workflow is not active');
		if (this.nextTickMs !== undefined) await this.world.advance(this.nextTickMs - clockNow());
		return await this.run('poll', async () => await this.poller.poll());
	}

	/** `count` polls; what each emitted. */
	async polls(count: number): Promise<FiredItem[][]> {
		const fired: FiredItem[][] = [];
		for (let i = 0; i < count; i++) fired.push(await this.poll());
		return fired;
	}

	/** Polls until `done()` holds or `max` polls ran; how many ran. */
	async pollUntil(done: () => boolean, max: number): Promise<number> {
		let count = 0;
		while (count < max && !done()) {
			await this.poll();
			count++;
		}
		return count;
	}

	private async run(
		kind: PollRecord['kind'],
		call: () => Promise<INodeExecutionData[][] | null>,
	): Promise<FiredItem[]> {
		const world = this.world;
		await world.advance();
		const errorsBefore = this.poller.errorCount();
		const startMs = clockNow();
		const startSeq = world.nextSeq();
		let result: INodeExecutionData[][] | null = null;
		try {
			result = await call();
		} catch {
			this.active = false; // a failed activation
		}
		const index = world.polls.length;
		const endSeq = world.nextSeq();
		const fired: FiredItem[] = (result?.[0] ?? []).map((item) => {
			const finishedMs = Date.parse(String(item.json.finishedAt));
			return {
				id: String(item.json.id),
				status: String(item.json.status),
				...(Number.isNaN(finishedMs) ? {} : { finishedMs }),
				pollIndex: index,
				seq: endSeq,
			};
		});
		const failed = this.poller.errorCount() > errorsBefore;
		world.polls.push({
			index,
			kind,
			startSeq,
			endSeq,
			startMs,
			endMs: clockNow(),
			fired,
			error: failed ? (this.poller.lastError() ?? 'failed') : undefined,
		});
		world.items.push(...fired);
		this.nextTickMs =
			startMs +
			this.intervalMs * Math.max(1, Math.ceil((clockNow() - startMs + 1) / this.intervalMs));
		return fired;
	}
}

/** The ids among `items`. */
export const idsOf = (items: FiredItem[]): string[] => items.map((item) => item.id);
