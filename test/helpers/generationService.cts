import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';
import { Readable } from 'node:stream';

import { clockNow, currentClock } from './clock.cjs';
import { API_PATH, APP_URL, api, servePing } from './fixtures.cjs';

export const GENERATIONS_PATH = `${API_PATH}/studio/generations`;

/**
 * How the service answers `GET /studio/generations`. The spec fixes none of it (no timestamps, no
 * order, no paging), so tests run the trigger against each plausible answer.
 */
export interface ListShape {
	/** 'finish': createdAt, updatedAt and finishedAt; 'none': no time field at all. */
	timestamps: 'finish' | 'none';
	/** Newest first by creation, by completion (unfinished ones at `pendingAt`), or by last update. */
	order: 'creation' | 'completion' | 'update';
	pendingAt?: 'top' | 'bottom';
	/** Paged as `{ generations, page, pages }`; else one array of any length. */
	pageSize?: number;
	/** The list shows only the newest N (unpaged). */
	window?: number;
	/** List entries carry outputs (else only a read by id does). */
	outputsInList?: boolean;
	/** The same order, the other way round: the list grows at its end. */
	oldestFirst?: boolean;
}

interface Generation {
	id: string;
	status: 'queued' | 'running' | 'done' | 'failed';
	format: string;
	credits: number;
	outputs: IDataObject[];
	createdMs: number;
	updatedMs: number;
	finishedMs?: number;
	note?: string;
}

/** A stand-in for the service's studio: generations, their list, reads by id, output files. */
export class GenerationService {
	/** Creation order, oldest first. */
	private generations: Generation[] = [];
	private clock = Date.UTC(2026, 10, 22, 9, 0, 0);
	/** The service's clock keeps to the real one (a millisecond apart at least), not a second an event from a fixed day. */
	realTime = false;
	requests: string[] = [];
	/** The next list reads fail with this status. */
	listFailures = 0;
	listFailStatus = 500;
	/** Reads by id that fail: id → failures left (Infinity: for ever). */
	detailFailures = new Map<string, number>();
	/** The next list reads answer these (a 200 with no list in it, say) instead of the list. */
	listAnswers: Array<[number, unknown]> = [];
	/** Each list page takes this long to answer (ms, on the runs' clock): a slow list. */
	pageDelayMs = 0;
	/** Ids a list answer has delivered (a slow starting point's read may stop before some). */
	delivered = new Set<string>();
	/** Output files take this long to answer (ms): a slow file server. */
	fileDelayMs = 0;
	/** Output files that trickle in, a byte every 100 ms, for as long as they are read. */
	tricklingFiles = new Set<string>();
	/** Output files that answer 404. */
	missingFiles = new Set<string>();
	/** Ids that finished (to a final status) since `startCounting()`. */
	finishedSinceStart = new Map<string, string>();
	private counting = false;
	/** The list order, worked out again only after a change. */
	private order: Generation[] | undefined;
	private byId = new Map<string, Generation>();

	constructor(public shape: ListShape) {}

	private tick(): number {
		this.clock = this.realTime ? Math.max(this.clock + 1, clockNow()) : this.clock + 1000;
		return this.clock;
	}

	/** The service's clock moves on (minutes pass with nothing happening). */
	advance(ms: number): void {
		this.clock += ms;
	}

	startCounting(): void {
		this.counting = true;
	}

	create(id: string, format = 'slideshow'): void {
		const now = this.tick();
		const generation: Generation = {
			id,
			status: 'queued',
			format,
			credits: 3,
			outputs: [],
			createdMs: now,
			updatedMs: now,
		};
		this.generations.push(generation);
		this.byId.set(id, generation);
		this.order = undefined;
	}

	finish(id: string, status: 'done' | 'failed' = 'done'): void {
		const generation = this.find(id);
		const now = this.tick();
		generation.status = status;
		generation.finishedMs = generation.updatedMs = now;
		generation.outputs = status === 'done' ? [{ id: `m_${id}`, path: `/uploads/${id}.png` }] : [];
		this.order = undefined;
		if (this.counting) this.finishedSinceStart.set(id, status);
	}

	/** Created and finished between two polls: never seen pending. */
	createDone(id: string, status: 'done' | 'failed' = 'done', format = 'slideshow'): void {
		this.create(id, format);
		this.finish(id, status);
	}

	/** Many at once, cheaply (no per-id work beyond the record). */
	createDoneMany(prefix: string, count: number, from = 0): string[] {
		const ids = Array.from({ length: count }, (_, i) => `${prefix}${from + i}`);
		for (const id of ids) this.createDone(id);
		return ids;
	}

	/** A record whose finish time is wrong (a bad record, a skewed clock): it says it finished at `ms`. */
	skewFinish(id: string, ms: number): void {
		this.find(id).finishedMs = ms;
		this.order = undefined;
	}

	/** Run again under the same id (a failed one, say): it is queued again. */
	rerun(id: string): void {
		const generation = this.find(id);
		generation.status = 'queued';
		generation.outputs = [];
		generation.finishedMs = undefined;
		generation.updatedMs = this.tick();
		this.order = undefined;
	}

	/** The service changes an old generation: metadata, outputs moved. Its status stays. */
	touch(id: string): void {
		const generation = this.find(id);
		generation.updatedMs = this.tick();
		generation.note = `touched ${generation.updatedMs}`;
		generation.outputs = generation.outputs.map((output) => ({
			...output,
			path: `/moved${String(output.path)}`,
		}));
		this.order = undefined;
	}

	remove(id: string): void {
		this.removeMany([id]);
	}

	/** A clean-up: these deleted at once. */
	removeMany(ids: Iterable<string>): void {
		const gone = new Set(ids);
		this.generations = this.generations.filter((generation) => !gone.has(generation.id));
		for (const id of gone) this.byId.delete(id);
		this.order = undefined;
	}

	get size(): number {
		return this.generations.length;
	}

	/** The list as the service shows it (newest first unless the shape says otherwise). */
	listed(): Generation[] {
		this.order ??= this.sorted();
		return this.order;
	}

	private sorted(): Generation[] {
		const rank = (generation: Generation) => {
			if (this.shape.order === 'creation') return generation.createdMs;
			if (this.shape.order === 'update') return generation.updatedMs;
			if (generation.finishedMs !== undefined) return generation.finishedMs;
			return this.shape.pendingAt === 'bottom' ? -Infinity : Infinity;
		};
		const newestFirst =
			this.shape.order === 'creation'
				? [...this.generations].reverse()
				: [...this.generations].sort((a, b) => rank(b) - rank(a));
		const shown = this.shape.window ? newestFirst.slice(0, this.shape.window) : newestFirst;
		return this.shape.oldestFirst ? shown.reverse() : shown;
	}

	private publicRecord(generation: Generation, inList: boolean): IDataObject {
		const record: IDataObject = {
			id: generation.id,
			status: generation.status,
			format: generation.format,
			credits: generation.credits,
		};
		if (!inList || this.shape.outputsInList !== false) record.outputs = generation.outputs;
		if (generation.note) record.note = generation.note;
		if (this.shape.timestamps === 'finish') {
			record.createdAt = new Date(generation.createdMs).toISOString();
			record.updatedAt = new Date(generation.updatedMs).toISOString();
			if (generation.finishedMs !== undefined)
				record.finishedAt = new Date(generation.finishedMs).toISOString();
		}
		return record;
	}

	private find(id: string): Generation {
		const generation = this.byId.get(id);
		if (!generation) throw new Error(`no generation ${id}`);
		return generation;
	}

	/** nock interceptors for the list, reads by id and output files. */
	serve(): void {
		servePing();
		api()
			.get(GENERATIONS_PATH)
			.query(true)
			.reply((uri, _body, callback) => {
				const answer = this.listAnswer(uri);
				// As real servers do: the service's own clock in a Date header (second precision).
				answer[2] = { ...answer[2], Date: new Date(this.clock).toUTCString() };
				void currentClock()
					.wait(this.pageDelayMs)
					.then(() => {
						const body = answer[1] as { generations?: unknown; page?: number; pages?: number };
						const rows = Array.isArray(body) ? body : body?.generations;
						// A list that grows at its end is read from its last page, which page 1 tells:
						// it is read for that, not for its entries (also when a read comes down to it:
						// counted as not delivered, the model only exempts more).
						const countOnly = this.shape.oldestFirst && body?.page === 1 && (body.pages ?? 1) > 1;
						if (answer[0] === 200 && Array.isArray(rows) && !countOnly)
							for (const row of rows as Array<{ id: string }>) this.delivered.add(row.id);
						callback(null, answer as [number, string]);
					});
			})
			.persist();
		this.serveRest();
	}

	/** The answer to one read of the list. */
	private listAnswer(uri: string): [number, unknown, Record<string, string>?] {
		this.requests.push(uri);
		if (this.listFailures > 0) {
			this.listFailures--;
			if (this.listFailStatus === 429)
				return [
					429,
					{ code: 'RATE_LIMITED', bucket: 'studio', limit: 1, retryAfter: 999 },
					{ 'Retry-After': '999' },
				];
			return [this.listFailStatus, { msg: 'down' }];
		}
		const answer = this.listAnswers.shift();
		if (answer) return answer;
		const query = new URL(uri, APP_URL).searchParams;
		const status = query.get('status');
		const rows = status
			? this.listed().filter((generation) => generation.status === status)
			: this.listed();
		const record = (generation: Generation) => this.publicRecord(generation, true);
		if (!this.shape.pageSize) return [200, rows.map(record)];
		const page = Number(query.get('page') ?? 1);
		const pages = Math.max(1, Math.ceil(rows.length / this.shape.pageSize));
		return [
			200,
			{
				generations: rows
					.slice((page - 1) * this.shape.pageSize, page * this.shape.pageSize)
					.map(record),
				page,
				pages,
			},
		];
	}

	private serveRest(): void {
		api()
			.get(new RegExp(`^${GENERATIONS_PATH}/[^/?]+$`))
			.reply((uri) => {
				this.requests.push(uri);
				const id = decodeURIComponent(uri.split('/').pop() ?? '');
				const failures = this.detailFailures.get(id) ?? 0;
				if (failures > 0) {
					this.detailFailures.set(id, failures - 1);
					return [500, { msg: 'detail read failed' }];
				}
				const generation = this.byId.get(id);
				return generation
					? [200, this.publicRecord(generation, false)]
					: [404, { msg: 'generation not found' }];
			})
			.persist();
		nock(APP_URL)
			.get(/^\/(moved\/)?uploads\//)
			.reply((uri, _body, callback) => {
				this.requests.push(uri);
				const id = uri
					.split('/')
					.pop()!
					.replace(/\.png$/, '');
				const answer: [number, unknown, Record<string, string>?] = this.missingFiles.has(id)
					? [404, { msg: 'file not found' }]
					: this.tricklingFiles.has(id)
						? [200, trickle(() => this.tricklingFiles.has(id)), { 'Content-Type': 'image/png' }]
						: [200, Buffer.from(`png ${id}`), { 'Content-Type': 'image/png' }];
				void currentClock()
					.wait(this.fileDelayMs)
					.then(() => callback(null, answer as [number, string]));
			})
			.persist();
	}
}

/**
 * A body that does not end while `trickling()`: a byte 100 ms (on the runs' clock) after each time
 * its reader asks for more. Then it is dropped, so nothing runs on into the next test (nock reads
 * it to the end though the client is gone).
 */
function trickle(trickling: () => boolean): Readable {
	const clock = currentClock();
	const body: Readable = new Readable({
		highWaterMark: 1,
		read: () => {
			void clock.wait(100).then(() => {
				if (body.destroyed) return;
				if (trickling()) body.push(Buffer.from('p'));
				else body.destroy();
			});
		},
	});
	return body;
}
