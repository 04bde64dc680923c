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
		expect(verdict.exempt).toEqual({ L1: ['gone'], L2: [], L3: [], L4: [], L5: [] });
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
