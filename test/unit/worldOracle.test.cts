/**
 * The oracle of the generation trigger (test/helpers/worldOracle.cts) judged on fake triggers:
 * plain functions that read the world's list and emit items. It must catch a trigger that takes a
 * new starting point and drops a backlog, even when that trigger says so in its log: the oracle
 * never reads a log, and an excuse the world does not show is no excuse.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { GENERATIONS_PATH, Schedule, ServiceWorld, type Poller } from '../helpers/serviceWorld.cjs';
import { described, drawHistory, runHistory } from '../helpers/worldHistories.cjs';
import { judge } from '../helpers/worldOracle.cjs';

type Entry = { id: string; status: string; key: string };
type Decide = (known: Set<string>, finished: Entry[]) => string[];

interface ListBody {
	generations?: Array<{ id: string; status: string; finishedAt?: string }>;
	page?: number;
	pages?: number;
	hasMore?: boolean;
	nextCursor?: string | null;
}

/** The whole list as the world serves it (every paging), up to the first failed answer. */
function readAll(world: ServiceWorld): { finished: Entry[]; failed: boolean } {
	const finished: Entry[] = [];
	let query = '';
	for (let page = 1; page < 10_000; page++) {
		const [status, body] = world.answerList(`${GENERATIONS_PATH}${query}`);
		if (status !== 200) return { finished, failed: true };
		const list = Array.isArray(body)
			? (body as ListBody['generations'])
			: (body as ListBody).generations;
		for (const entry of list ?? [])
			if (entry.finishedAt && (entry.status === 'done' || entry.status === 'failed'))
				finished.push({ ...entry, key: `${entry.id}|${entry.status}|${entry.finishedAt}` });
		if (Array.isArray(body)) break;
		const { pages, hasMore, nextCursor } = body as ListBody;
		if (nextCursor) query = `?cursor=${nextCursor}`;
		else if ((pages !== undefined && page < pages) || hasMore) query = `?page=${page + 1}`;
		else break;
	}
	return { finished, failed: false };
}

/**
 * A fake trigger over the world's list, read whole each poll (a failed page ends the read; what
 * was read counts), one memory per account as the ping names it; `decide` picks what fires.
 */
function fakeTrigger(world: ServiceWorld, decide: Decide): Poller {
	const known = new Map<string, Set<string>>();
	let errors = 0;
	const emit = (keys: string[]): INodeExecutionData[][] | null =>
		keys.length
			? [keys.map((key) => ({ json: { id: key.split('|')[0], status: key.split('|')[1] } }))]
			: null;
	const poll = async () => {
		const account = world.account; // what GET /agents/ping answers
		const { finished, failed } = readAll(world);
		if (failed) errors++;
		const memory = known.get(account);
		if (!memory) {
			if (failed) throw new Error('the first read failed'); // an activation that fails
			// An account seen for the first time: what is there is its start.
			known.set(account, new Set(finished.map((entry) => entry.key)));
			return null;
		}
		const fired = decide(memory, finished);
		for (const key of fired) memory.add(key);
		return emit(fired);
	};
	const quiet = async () => await poll().catch(() => null);
	return {
		activate: poll,
		restart: quiet,
		poll: quiet,
		deactivate: () => undefined,
		errorCount: () => errors,
		lastError: () => (errors ? 'a list page failed' : undefined),
	};
}

const honest: Decide = (known, finished) => [
	...new Set(finished.filter((entry) => !known.has(entry.key)).map((entry) => entry.key)),
];

async function history(decide: (log: string[]) => Decide) {
	const world = new ServiceWorld({ order: 'creation', paging: 'pages', pageSize: 7 });
	await world.createDoneMany('old_', 30);
	const log: string[] = [];
	const schedule = new Schedule(world, fakeTrigger(world, decide(log)));
	await schedule.activate();
	world.createDone('a');
	await schedule.polls(2);
	schedule.deactivate();
	await world.advance(3_600_000);
	const backlog = await world.createDoneMany('b_', 61);
	await schedule.activate();
	await schedule.polls(3);
	return { world, log, backlog };
}

describe('the world oracle judges from the world alone', () => {
	test('an honest fake trigger is clean: every finish after activation fired once', async () => {
		const { world } = await history(() => honest);
		const verdict = judge(world);
		expect(verdict.summary).toMatch(/^owed 62, fired 62, items 62, lost 0/);
		expect(verdict.clean).toBe(true);
	});

	test('a fake that takes a new starting point over a backlog, and logs it, is caught: the backlog is lost, none of it exempt', async () => {
		const { world, log, backlog } = await history((log) => (known, finished) => {
			const unknown = finished.filter((entry) => !known.has(entry.key));
			if (unknown.length > 50) {
				// What the old trigger did: the list "looks replaced", so start again from here.
				log.push(`new starting point: ${unknown.length} taken as already there`);
				for (const entry of unknown) known.add(entry.key);
				return [];
			}
			return unknown.map((entry) => entry.key);
		});
		expect(log).toEqual(['new starting point: 61 taken as already there']);
		const verdict = judge(world);
		expect(verdict.clean).toBe(false);
		expect(verdict.counts.lost).toBe(61);
		expect(
			verdict.violations
				.filter((v) => v.kind === 'lost')
				.map((v) => v.id)
				.sort(),
		).toEqual([...backlog].sort());
		expect(Object.values(verdict.exempt).flat()).toEqual([]);
	});

	test('a fake that fires twice, fires old ones, and fires what never finished is caught each way', async () => {
		const { world } = await history(() => (known, finished) => {
			const fired = honest(known, finished);
			if (fired.length) fired.push(fired[0], 'old_3|done|x', 'ghost|done|x', 'old_4|failed|x');
			return fired;
		});
		const verdict = judge(world);
		expect(verdict.counts).toEqual({
			firedTwice: 2,
			firedBeforeActivation: 2,
			firedNeverFinished: 4,
			lost: 0,
		});
	});

	test('a finish no answer showed (deleted before a read reached it) is exempt under L1 only', async () => {
		const world = new ServiceWorld({ order: 'creation', paging: 'pages', pageSize: 7 });
		await world.createDoneMany('old_', 10);
		const schedule = new Schedule(world, fakeTrigger(world, honest));
		await schedule.activate();
		world.createDone('gone');
		world.delete(['gone']);
		world.createDone('kept');
		await schedule.polls(2);
		const verdict = judge(world);
		expect(verdict.clean).toBe(true);
		expect(verdict.exempt).toEqual({ L1: ['gone'], L2: [], L3: [], L4: [], L5: [], L9: [] });
	});

	test.each(Array.from({ length: 13 }, (_, i) => 6701 + i))(
		'random history %i with an honest fake trigger (reads the whole list each poll): clean',
		async (seed) => {
			const history = drawHistory(seed);
			const verdict = await runHistory(history, (world) => fakeTrigger(world, honest));
			expect(verdict.clean ? 'clean' : `${described(history)}: ${verdict.summary}`).toBe('clean');
			expect(`${described(history)}: ${verdict.summary}`).toMatch(/owed [1-9]/);
		},
	);
});

describe('the service world serves what it says', () => {
	const ids = (world: ServiceWorld, paging: 'pages' | 'hasMore' | 'cursor') => {
		const seen: string[] = [];
		let query = '';
		for (let page = 1; page < 100; page++) {
			const [, body] = world.answerList(`${GENERATIONS_PATH}${query}`);
			const { generations, pages, hasMore, nextCursor } = body as ListBody;
			seen.push(...(generations ?? []).map((entry) => entry.id));
			const more = paging === 'pages' ? page < pages! : paging === 'hasMore' ? hasMore : nextCursor;
			if (!more) break;
			query = paging === 'cursor' ? `?cursor=${nextCursor}` : `?page=${page + 1}`;
		}
		return seen;
	};

	test.each(['pages', 'hasMore', 'cursor'] as const)(
		'paged by %s, newest first by creation: every entry once, each answer logged with its Date on the service clock',
		async (paging) => {
			const world = new ServiceWorld({ order: 'creation', paging, pageSize: 7 });
			world.serviceSkewMs = -20 * 60_000;
			const made = await world.createDoneMany('g', 23);
			expect(ids(world, paging)).toEqual([...made].reverse());
			expect(world.served.map((answer) => answer.entries.length)).toEqual([7, 7, 7, 2]);
			expect(world.served.map((answer) => [answer.firstPage, answer.lastPage])).toEqual([
				[true, false],
				[false, false],
				[false, false],
				[false, true],
			]);
			const [, , headers] = world.answerList(GENERATIONS_PATH);
			const date = Date.parse(headers.Date);
			expect(Math.abs(date - world.served[4].serviceMs)).toBeLessThan(1000);
			expect(world.served[4].serviceMs - world.served[4].n8nMs).toBe(-20 * 60_000);
		},
	);

	test('a cursor names the last entry served: a deletion between pages skips nothing', async () => {
		const world = new ServiceWorld({ order: 'creation', paging: 'cursor', pageSize: 5 });
		const made = await world.createDoneMany('g', 12);
		const [, first] = world.answerList(GENERATIONS_PATH);
		world.delete(made.slice(9)); // the 3 newest, all on the first page
		const { nextCursor } = first as ListBody;
		const [, second] = world.answerList(`${GENERATIONS_PATH}?cursor=${nextCursor}`);
		expect((second as ListBody).generations!.map((entry) => entry.id)).toEqual([
			'g6',
			'g5',
			'g4',
			'g3',
			'g2',
		]);
	});

	test('orders, a cut list, naive times, a slow worker, a re-run, the k-th request and a bad page', async () => {
		const world = new ServiceWorld({
			order: 'finish',
			paging: 'unpaged',
			newestN: 3,
			naiveTimes: true,
		});
		world.createDone('a');
		world.createDone('b', 'done', -2 * 60_000); // a worker 2 minutes behind: placed below a
		world.createDone('c');
		world.create('q'); // unfinished: at the top of a list by finish
		await world.advance();
		const [, listed] = world.answerList(GENERATIONS_PATH);
		const rows = listed as Array<{ id: string; finishedAt?: string }>;
		expect(rows.map((row) => row.id)).toEqual(['q', 'c', 'a']);
		expect(rows[1].finishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
		expect(world.get('b').outOfViewSeq).toBeDefined();
		world.rerun('a');
		expect(world.get('a').status).toBe('queued');
		world.finish('a', 'failed');
		expect(world.get('a').outcomes.map((outcome) => outcome.status)).toEqual(['done', 'failed']);
		world.failRequests.set(world.listRequests + 2, 30);
		expect(world.answerList(GENERATIONS_PATH)[0]).toBe(200);
		const [status, body, headers] = world.answerList(GENERATIONS_PATH);
		expect([status, (body as { retryAfter: number }).retryAfter, headers['Retry-After']]).toEqual([
			429,
			30,
			'30',
		]);
		world.failingPages.add(1);
		expect(world.answerList(GENERATIONS_PATH)[0]).toBe(500);
	});

	test('no order: sorted by a UUID-like key, not by time', async () => {
		const world = new ServiceWorld({ order: 'none', paging: 'unpaged' });
		const made = await world.createDoneMany('g', 40);
		const [, listed] = world.answerList(GENERATIONS_PATH);
		const order = (listed as Array<{ id: string }>).map((row) => row.id);
		expect([...order].sort()).toEqual([...made].sort());
		expect(order).not.toEqual(made);
		expect(order).not.toEqual([...made].reverse());
		const keys = order.map((id) => world.get(id).uuid);
		expect(keys).toEqual([...keys].sort());
	});
});
