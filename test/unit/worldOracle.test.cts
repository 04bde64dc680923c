/**
 * The oracle of the generation trigger (test/helpers/worldOracle.cts) judged on fake triggers:
 * plain functions that read the world's list and emit items. It must catch a trigger that takes a
 * new starting point and drops a backlog, even when that trigger says so in its log: the oracle
 * never reads a log, and an excuse the world does not show is no excuse.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { GENERATIONS_PATH, Schedule, ServiceWorld, type Poller } from '../helpers/serviceWorld.cjs';
import { judge } from '../helpers/worldOracle.cjs';

type Decide = (
	known: Set<string>,
	finished: Array<{ id: string; status: string; key: string }>,
) => string[];

/** A fake trigger over the world's list, read whole page by page; `decide` picks what fires. */
function fakeTrigger(world: ServiceWorld, decide: Decide): Poller {
	const known = new Set<string>();
	let errors = 0;
	let activated = false;
	const readAll = () => {
		const finished: Array<{ id: string; status: string; key: string }> = [];
		for (let page = 1; page < 1000; page++) {
			const [status, body] = world.answerList(`${GENERATIONS_PATH}?page=${page}`);
			if (status !== 200) throw new Error(`list answered ${status}`);
			const { generations, pages } = body as {
				generations: Array<{ id: string; status: string; finishedAt?: string }>;
				pages: number;
			};
			for (const entry of generations)
				if (entry.finishedAt)
					finished.push({ ...entry, key: `${entry.id}|${entry.status}|${entry.finishedAt}` });
			if (page >= pages) break;
		}
		return finished;
	};
	const emit = (ids: string[]): INodeExecutionData[][] | null =>
		ids.length
			? [ids.map((key) => ({ json: { id: key.split('|')[0], status: key.split('|')[1] } }))]
			: null;
	return {
		activate: async () => {
			// The first activation takes what is there as its start; later ones go on (state kept).
			if (!activated) for (const entry of readAll()) known.add(entry.key);
			activated = true;
			return null;
		},
		poll: async () => {
			try {
				const fired = decide(known, readAll());
				for (const key of fired) known.add(key);
				return emit(fired);
			} catch {
				errors++;
				return null;
			}
		},
		deactivate: () => undefined,
		errorCount: () => errors,
		lastError: () => undefined,
	};
}

const honest: Decide = (known, finished) =>
	finished.filter((entry) => !known.has(entry.key)).map((entry) => entry.key);

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
});
