/**
 * The trigger in each of n8n's poll engines (classic; durable scheduler; durable scheduler with
 * durable cursors), driven through the real PollContext and poll() as n8n 2.41.1 drives them (see
 * test/helpers/pollEngines.cts), against answers the spec allows. Totals are printed at the end.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import { READ_RETRY_DELAYS_MS } from '../../nodes/shared/transport';
import { MAX_ATTEMPTS } from '../../nodes/SocialContentTrigger/generationState';
import { clockNow } from '../helpers/clock.cjs';
import { apiKeyCredentials, pingAnswer, servePing } from '../helpers/fixtures.cjs';
import { GenerationService, type ListShape } from '../helpers/generationService.cjs';
import { ENGINES, SimulatedN8n, type Engine } from '../helpers/pollEngines.cjs';

const READ_TRIES = READ_RETRY_DELAYS_MS.length + 1;
const NO_TIMESTAMPS: ListShape = { timestamps: 'none', order: 'creation' };

type PollResult = INodeExecutionData[][] | null;

/** Counts what fired against what finished after activation. */
class Tally {
	readonly times = new Map<string, number>();
	readonly items: IDataObject[] = [];

	add(result: PollResult, ...more: PollResult[]): string[] {
		const results = [result, ...more];
		const fired: string[] = [];
		for (const one of results) {
			for (const item of one?.[0] ?? []) {
				const id = String(item.json.id);
				this.items.push(item.json);
				fired.push(id);
				this.times.set(id, (this.times.get(id) ?? 0) + 1);
			}
		}
		return fired;
	}

	totals(service: GenerationService, statuses = ['done']) {
		const due = [...service.finishedSinceStart]
			.filter(([, status]) => statuses.includes(status))
			.map(([id]) => id);
		return {
			firedOnce: [...this.times.values()].filter((n) => n === 1).length,
			firedTwice: [...this.times.values()].filter((n) => n > 1).length,
			lost: due.filter((id) => !this.times.has(id)).length,
			firedOld: [...this.times.keys()].filter((id) => !due.includes(id)).length,
		};
	}
}

const printed: string[] = [];
afterAll(() => {
	// eslint-disable-next-line no-console
	console.info(`trigger in each poll engine:\n${printed.join('\n')}`);
});

function expectExactlyOnce(name: string, totals: ReturnType<Tally['totals']>): void {
	printed.push(
		`  ${name}: fired once ${totals.firedOnce}, fired twice ${totals.firedTwice}, lost ${totals.lost}, old ones fired ${totals.firedOld}`,
	);
	expect({ firedTwice: totals.firedTwice, lost: totals.lost, firedOld: totals.firedOld }).toEqual({
		firedTwice: 0,
		lost: 0,
		firedOld: 0,
	});
}

beforeEach(() => {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
});

const SHAPES: Array<[string, ListShape]> = [
	['no timestamps, creation order', NO_TIMESTAMPS],
	[
		'finish times, completion order, paged 10',
		{ timestamps: 'finish', order: 'completion', pageSize: 10 },
	],
	['no timestamps, update order', { timestamps: 'none', order: 'update' }],
];

describe.each(ENGINES)("Social Content Trigger in n8n's %s poll engine", (engine: Engine) => {
	test.each(SHAPES)(
		'%s: activation, finished right after it, a list failing two polls, a restart, a file that stays missing, deactivate/activate',
		async (shapeName, shape) => {
			const p = `${engine}_${shape.order}_${shape.timestamps}_`; // ids unique per test: n8n's process memory is shared
			const service = new GenerationService(shape);
			service.serve();
			service.createDoneMany(`${p}old_`, 30);
			service.create(`${p}p1`);
			service.create(`${p}p2`);
			const n8n = new SimulatedN8n(
				engine,
				{ events: ['done'], downloadOutputs: true },
				apiKeyCredentials,
			);
			const tally = new Tally();

			expect(await n8n.activate()).toBeNull(); // the baseline
			service.startCounting();

			// Finished between activation and the first scheduled poll.
			service.createDone(`${p}a1`);
			service.finish(`${p}p1`);
			expect(tally.add(await n8n.poll()).sort()).toEqual([`${p}a1`, `${p}p1`]);

			// The list fails for two polls: each is an error n8n records (and backs off from).
			service.listFailures = READ_TRIES * 2;
			service.createDone(`${p}b1`);
			tally.add(await n8n.poll());
			tally.add(await n8n.poll());
			expect(n8n.pollErrors).toHaveLength(2);
			expect(tally.add(await n8n.poll())).toEqual([`${p}b1`]);

			// A restart: what finished while n8n was down fires once.
			service.createDone(`${p}c1`);
			tally.add(await n8n.restart());
			tally.add(await n8n.poll());
			expect(tally.times.get(`${p}c1`)).toBe(1);

			// A file that stays missing: tried on MAX_ATTEMPTS polls, then emitted with its error.
			service.createDone(`${p}m1`);
			service.missingFiles.add(`${p}m1`);
			for (let poll = 0; poll < MAX_ATTEMPTS + 2; poll++) tally.add(await n8n.poll());
			const missing = tally.items.filter((item) => item.id === `${p}m1`);
			expect(missing).toHaveLength(1);
			expect(String(missing[0].error)).toMatch(new RegExp(`after ${MAX_ATTEMPTS} tries`));

			// Deactivated while generations finish, activated again: they fire once, at the activation poll or the next.
			n8n.deactivate();
			service.finish(`${p}p2`);
			service.createDone(`${p}d1`);
			tally.add(await n8n.activate());
			tally.add(await n8n.poll());
			for (let poll = 0; poll < 3; poll++) tally.add(await n8n.poll());

			expect(n8n.pollErrors).toHaveLength(2);
			expect(n8n.activationErrors).toHaveLength(0);
			const totals = tally.totals(service);
			expect(totals.firedOnce).toBe(7);
			expectExactlyOnce(`${engine}, ${shapeName}`, totals);
		},
		120_000,
	);

	test('a list answer with no generations in it (empty array, empty body, no list, a null list) moves nothing', async () => {
		const p = `${engine}_empty_`;
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany(`${p}old_`, 40);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		const tally = new Tally();
		await n8n.activate();
		service.startCounting();
		const answers: Array<[number, unknown]> = [
			[200, []],
			[200, ''],
			[200, { data: {} }],
			[200, { generations: null }],
			[200, { ok: true }],
		];
		for (const answer of answers) {
			service.listAnswers.push(answer);
			tally.add(await n8n.poll());
			tally.add(await n8n.poll()); // the list as it is: nothing old fires again
		}
		service.createDone(`${p}new`);
		expect(tally.add(await n8n.poll())).toEqual([`${p}new`]);
		expect(n8n.pollErrors).toEqual([]);
		expectExactlyOnce(`${engine}, answers with no list`, tally.totals(service));
	});

	test('two polls of one trigger at once fire each generation once', async () => {
		const p = `${engine}_overlap_`;
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany(`${p}old_`, 10);
		const n8n = new SimulatedN8n(
			engine,
			{ events: ['done'], downloadOutputs: true },
			apiKeyCredentials,
		);
		const tally = new Tally();
		await n8n.activate();
		service.startCounting();
		service.fileDelayMs = 200; // a slow download keeps the first poll running
		service.createDone(`${p}x`);
		service.createDone(`${p}y`);
		tally.add(...(await n8n.overlappingPolls()));
		tally.add(await n8n.poll());
		service.createDone(`${p}z`);
		tally.add(...(await n8n.overlappingPolls()));
		tally.add(await n8n.poll());
		expectExactlyOnce(`${engine}, overlapping polls`, tally.totals(service));
	});
});

describe('Social Content Trigger: a poll stays inside its time budget', () => {
	test('100 generations whose files come slowly: each poll ends within its budget, the rest is carried over, in order, once each', async () => {
		const p = 'budget_';
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDone(`${p}seed`);
		const n8n = new SimulatedN8n(
			'classic',
			{ events: ['done'], downloadOutputs: true },
			apiKeyCredentials,
		);
		const tally = new Tally();
		await n8n.activate();
		service.startCounting();
		const ids = service.createDoneMany(`${p}g`, 100);
		service.fileDelayMs = 250;
		const order: string[] = [];
		const durations: number[] = [];
		for (let poll = 0; poll < 6 && tally.times.size < 100; poll++) {
			const started = clockNow();
			order.push(...tally.add(await n8n.poll()));
			durations.push(clockNow() - started);
		}
		expect(order).toEqual(ids); // oldest first, across polls
		expect(durations.length).toBeGreaterThan(1); // it did not fit one poll: carried
		// 20 s budget; a download started just before the end may finish after it.
		expect(Math.max(...durations)).toBeLessThan(30_000);
		printed.push(
			`  100 slow files (250 ms each): ${durations.length} polls of ${durations.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s`,
		);
		expectExactlyOnce('slow files, carried over', tally.totals(service));
	}, 120_000);

	test('a 429 asking for longer than the poll has left fails the poll at once, naming the wait (no hammering)', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		const n8n = new SimulatedN8n('durable', { events: ['done'] }, apiKeyCredentials);
		await n8n.activate();
		service.listFailStatus = 429; // retryAfter: 999, and the header says seconds
		service.listFailures = 1;
		const started = clockNow();
		await n8n.poll();
		expect(clockNow() - started).toBeLessThan(5000);
		expect(n8n.pollErrors[0]?.message).toMatch(/rate/i);
	});
});
