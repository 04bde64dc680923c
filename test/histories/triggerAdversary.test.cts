/**
 * Adversarial histories for the generation trigger's promise (docs/trigger.md, "Generation
 * events"), driven from outside as a service and n8n would behave (test/helpers/serviceWorld.cts)
 * and judged from the world alone (test/helpers/worldOracle.cts). Each test is one minimal
 * history: one that breaks the promise beyond the limits L1–L8 (it FAILS: the assertion says what
 * the promise owes), or one that held.
 *
 * Findings fixed in session 37 (each failed in all three engines before): A1, F1 and A2, H1
 * (a Date header or a worker more than OVERLAP off: old ones fired, new ones lost; now the basis
 * is the lower, and the starting point's clock the later, of the Date and the mark); A3 (a 2099
 * finish before activation fired; now a finish past the service's clock at the starting point is
 * recorded); B1, B2, B7, F2 (a list by creation taken for a list by finish: a run again or a long
 * render below the stop never fired; now only a whole read moves the floor, and every 5th read is
 * whole: rule `whole-read-every`). A5, A6, C1 were fixed in session 36 (`finish-rewritten`).
 *
 * Still open (OPEN below; `npm run test:findings` plays them; each fails in all three engines):
 * - K1, K2: a list with updatedAt and no finishedAt (K2: failed ones only): a bulk edit fires the
 *   edited ones again, old ones too.
 * - N1, P1: what the starting point did not see (a cut list, a page shift) fires later, though it
 *   finished before activation (the limit L9).
 * Held: A4, A7–A11, B3–B6, C2, D1, D2, E1, J1, J2, M1, P2, Q1, S1.
 */
import nock from 'nock';

import { ENGINES, type Engine } from '../helpers/pollEngines.cjs';
import {
	DAY,
	enginePoller,
	HOUR,
	MINUTE,
	Schedule,
	ServiceWorld,
	type WorldShape,
} from '../helpers/serviceWorld.cjs';
import { judge } from '../helpers/worldOracle.cjs';

beforeEach(() => {
	nock.cleanAll();
});

function setUp(engine: Engine, shape: WorldShape) {
	const world = new ServiceWorld(shape);
	world.serve();
	const schedule = new Schedule(world, enginePoller(engine, { events: ['done'] }));
	return { world, schedule };
}

/** How often each of these ids fired. */
function timesFired(world: ServiceWorld, ids: string[]): number[] {
	return ids.map((id) => world.items.filter((item) => item.id === id).length);
}

/** List answers that showed this id finished after its last finish (how often the service showed it). */
function shownAfterLastFinish(world: ServiceWorld, id: string): number {
	const last = world.get(id).outcomes.at(-1);
	return world.served.filter(
		(answer) =>
			answer.httpStatus === 200 &&
			last !== undefined &&
			answer.seq > last.seq &&
			answer.entries.some((entry) => entry.id === id && entry.status === last.status),
	).length;
}

const verdict = (world: ServiceWorld) => {
	const result = judge(world);
	return result.clean ? 'clean' : result.summary;
};

const BY_FINISH: WorldShape = { order: 'finish', paging: 'pages', pageSize: 20 };
const BY_CREATION: WorldShape = { order: 'creation', paging: 'pages', pageSize: 20 };

/**
 * Findings still open (docs/trigger.md, "Open findings"): skipped by `npm test`, played (and
 * failing) by `npm run test:findings`. A finding fixed leaves this list and runs with the rest.
 */
const OPEN = ['K1', 'K2', 'N1', 'P1'];
const PLAY_OPEN = process.env.TRIGGER_FINDINGS === 'open';
const isOpen = (name: string) => !PLAY_OPEN && OPEN.includes(name.split(':')[0]);
const jestTest = globalThis.test;
/** jest's `each`, loosely typed: the tables here are arrays of one value or of tuples. */
type Each = (table: readonly unknown[]) => (name: string, fn: unknown, timeout?: number) => void;
/** `test`, skipping the open findings (see OPEN). */
const test = Object.assign(
	(name: string, fn: jest.ProvidesCallback, timeout?: number) =>
		(isOpen(name) ? jestTest.skip : jestTest)(name, fn, timeout),
	{
		each:
			<Row,>(table: readonly Row[]) =>
			(name: string, fn: (...args: never[]) => unknown, timeout?: number) =>
				((isOpen(name) ? jestTest.skip : jestTest).each as unknown as Each)(table)(
					name,
					fn,
					timeout,
				),
	},
);

describe.each(ENGINES)("adversarial histories in n8n's %s poll engine", (engine: Engine) => {
	test('A1: the Date header 30 min behind the workers: 7 finished before activation must not fire', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		world.dateOffsetMs = -30 * MINUTE;
		const old = await world.createDoneMany('old_', 7);
		await world.advance(5 * MINUTE);
		await schedule.activate();
		await schedule.polls(2);
		expect({ old: timesFired(world, old), oracle: verdict(world) }).toEqual({
			old: [0, 0, 0, 0, 0, 0, 0],
			oracle: 'clean',
		});
	});

	test('A2: the Date header 30 min ahead of the workers: 3 finishing after activation must fire', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		world.dateOffsetMs = 30 * MINUTE;
		await world.createDoneMany('old_', 7);
		await schedule.activate();
		await schedule.polls(2);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(3);
		expect({ fresh: timesFired(world, fresh), oracle: verdict(world) }).toEqual({
			fresh: [1, 1, 1],
			oracle: 'clean',
		});
	});

	test('A3: one generation with finishedAt in 2099 finished before activation: it must not fire', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		await world.createDoneMany('old_', 5);
		world.create('far');
		world.finish('far', 'done', { finishedMs: Date.UTC(2099, 0, 1) });
		await world.advance(MINUTE);
		await schedule.activate();
		await schedule.polls(2);
		expect({ far: timesFired(world, ['far']), oracle: verdict(world) }).toEqual({
			far: [0],
			oracle: 'clean',
		});
	});

	test('A4: no Date header; two generations with finishedAt in 2099 before activation: 3 finishing later must fire', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		world.omitDate = true;
		await world.createDoneMany('old_', 5);
		for (const id of ['far1', 'far2']) {
			world.create(id);
			world.finish(id, 'done', { finishedMs: Date.UTC(2099, 0, 1) });
		}
		await world.advance(MINUTE);
		await schedule.activate();
		await schedule.polls(2);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(3);
		expect({ fresh: timesFired(world, fresh) }).toEqual({ fresh: [1, 1, 1] });
	});

	test('A5: finish times written as epoch seconds on one answer, ISO with ms on the next: each finish fires once', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		await world.createDoneMany('old_', 5);
		await schedule.activate();
		await schedule.polls(1);
		world.finishText = (ms) =>
			world.listRequests % 2 ? Math.floor(ms / 1000) : new Date(ms).toISOString();
		world.create('g1');
		await world.advance(1234);
		world.finish('g1');
		await world.advance(567);
		await schedule.polls(4);
		expect({ g1: timesFired(world, ['g1']), oracle: verdict(world) }).toEqual({
			g1: [1],
			oracle: 'clean',
		});
	});

	test('A6: the service rewrites a finish time after it fired (no new run): it fires once', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		await world.createDoneMany('old_', 5);
		await schedule.activate();
		await schedule.polls(1);
		world.create('g1');
		await world.advance(1234);
		const outcome = world.finish('g1');
		await schedule.polls(1);
		world.rewriteFinish('g1', outcome.finishedMs + 2000);
		await schedule.polls(2);
		expect({ g1: timesFired(world, ['g1']), oracle: verdict(world) }).toEqual({
			g1: [1],
			oracle: 'clean',
		});
	});

	test("A7: the activation poll's first read fails mid-way (a 429 asking 5 min): none of 61 old fire, 3 new do", async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 300 });
		await world.createDoneMany('old_', 61);
		world.failRequests.set(2, 300);
		await schedule.activate();
		await schedule.polls(2);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(3);
		expect({
			oldFired: world.items.filter((item) => item.id.startsWith('old_')).length,
			fresh: timesFired(world, fresh),
			oracle: verdict(world),
		}).toEqual({ oldFired: 0, fresh: [1, 1, 1], oracle: 'clean' });
	});

	test('A8: an empty list at activation, then history: 3 finishing after fire once', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		await schedule.activate();
		await schedule.polls(1);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(2);
		expect({ fresh: timesFired(world, fresh), oracle: verdict(world) }).toEqual({
			fresh: [1, 1, 1],
			oracle: 'clean',
		});
	});

	test('A9: two accounts alternating every poll, one finish each per poll: each fires once', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		const other = `${world.homeAccount}_b`;
		await world.createDoneMany('old_', 3);
		world.create('ob_0', other);
		world.finish('ob_0');
		await schedule.activate();
		const fresh: string[] = [];
		for (let i = 0; i < 6; i++) {
			const account = i % 2 ? world.homeAccount : other;
			world.useAccount(account);
			const id = `alt_${i}`;
			world.create(id, account);
			world.finish(id);
			fresh.push(id);
			await world.advance(1000);
			await schedule.polls(1);
		}
		world.useAccount(world.homeAccount);
		await schedule.polls(1);
		world.useAccount(other);
		await schedule.polls(1);
		expect({ fresh: timesFired(world, fresh).map((n) => Math.min(n, 2)) }).toEqual({
			// The first other-account poll is its starting point (alt_0 recorded); the rest fire once.
			fresh: [0, 1, 1, 1, 1, 1],
		});
	});
});

describe('adversarial histories needing a long run (classic engine)', () => {
	test('A10: off for 3 days while 3,607 finish spread over them (a list by finish, pages of 100): all fire once', async () => {
		const { world, schedule } = setUp('classic', {
			order: 'finish',
			paging: 'pages',
			pageSize: 100,
		});
		await world.createDoneMany('old_', 11);
		await schedule.activate();
		await schedule.polls(1);
		schedule.deactivate();
		const backlog: string[] = [];
		const count = 3607;
		for (let i = 0; i < count; i++) {
			const id = `b_${i}`;
			world.createDone(id);
			backlog.push(id);
			await world.advance(Math.floor((3 * DAY) / count));
		}
		await world.advance(HOUR);
		await schedule.activate();
		await schedule.pollUntil(() => world.items.length >= count, 40);
		const times = timesFired(world, backlog);
		expect({
			fired: times.filter((n) => n === 1).length,
			twice: times.filter((n) => n > 1).length,
			oracle: verdict(world),
		}).toEqual({ fired: count, twice: 0, oracle: 'clean' });
	}, 600_000);
});

describe('adversarial histories needing a longer run (classic engine)', () => {
	test('A11: off for 3 days while 5,003 finish spread over them (a list by creation, pages of 100): all fire once', async () => {
		const { world, schedule } = setUp('classic', {
			order: 'finish',
			paging: 'pages',
			pageSize: 100,
		});
		await world.createDoneMany('old_', 11);
		await schedule.activate();
		await schedule.polls(1);
		schedule.deactivate();
		const backlog: string[] = [];
		const count = 5003;
		for (let i = 0; i < count; i++) {
			const id = `b_${i}`;
			world.createDone(id);
			backlog.push(id);
			await world.advance(Math.floor((3 * DAY) / count));
		}
		await world.advance(HOUR);
		await schedule.activate();
		await schedule.pollUntil(() => world.items.length >= count, 60);
		const times = timesFired(world, backlog);
		expect({
			fired: times.filter((n) => n === 1).length,
			twice: times.filter((n) => n > 1).length,
			oracle: verdict(world),
		}).toEqual({ fired: count, twice: 0, oracle: 'clean' });
	}, 600_000);

	// Issue 67's backlog bench rows (`npm run bench -- triggerBacklog`), small enough for npm test:
	// the 2,609 older ones' keys filled the room, and the backlog's own gave way mid-read.
	test('A12: off for an hour while 3,607 finish at once over 2,609 older (a list by creation, pages of 101): all fire once', async () => {
		const { world, schedule } = setUp('classic', {
			order: 'creation',
			paging: 'pages',
			pageSize: 101,
			pageLatencyMs: 787,
		});
		await world.createDoneMany('old_', 2609);
		await schedule.activate();
		await schedule.polls(2);
		schedule.deactivate();
		await world.advance(HOUR);
		const count = 3607;
		const backlog = await world.createDoneMany('b_', count);
		await schedule.activate();
		const polls = await schedule.pollUntil(() => world.items.length >= count, 40);
		const times = timesFired(world, backlog);
		expect({
			fired: times.filter((n) => n === 1).length,
			twice: times.filter((n) => n > 1).length,
			// One whole read: 62 pages of 787 ms, 3 polls of 20 s; + 2.
			withinAWholeRead: polls <= 5,
			oracle: verdict(world),
		}).toEqual({ fired: count, twice: 0, withinAWholeRead: true, oracle: 'clean' });
	}, 600_000);
});

describe.each(ENGINES)("more adversarial histories in n8n's %s poll engine", (engine: Engine) => {
	test('B1: a list by creation; an old generation (page 6) run again an hour after activation: its new outcome fires', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		const old = await world.createDoneMany('old_', 101);
		await world.advance(HOUR);
		await schedule.activate();
		await schedule.polls(2);
		const deep = old[3];
		world.rerun(deep);
		world.start(deep);
		await world.advance(2 * MINUTE);
		world.finish(deep);
		await schedule.polls(3);
		expect({
			deep: timesFired(world, [deep]),
			shown: shownAfterLastFinish(world, deep),
			oracle: verdict(world),
		}).toEqual({
			deep: [1],
			shown: expect.any(Number),
			oracle: 'clean',
		});
	});

	test('B8: polls 5 minutes apart; a list by creation; an old generation (page 6) run again between two polls: its new outcome fires', async () => {
		const world = new ServiceWorld(BY_CREATION);
		world.serve();
		const poller = enginePoller(engine, { events: ['done'] });
		const schedule = new Schedule(world, poller, 5 * MINUTE);
		const old = await world.createDoneMany('old_', 101);
		await world.advance(HOUR);
		await schedule.activate();
		await schedule.polls(2);
		const deep = old[3];
		world.rerun(deep);
		world.finish(deep);
		for (let poll = 0; poll < 7; poll++) {
			// New ones at the top each poll: reads that stop above it (rule whole-read-every).
			await world.createDoneMany(`new${poll}_`, 3);
			await schedule.polls(1);
		}
		expect({ deep: timesFired(world, [deep]), oracle: verdict(world) }).toEqual({
			deep: [1],
			oracle: 'clean',
		});
	});

	test('B2: a list by creation; one generation runs 3 hours (created before 101 others): it fires when it finishes', async () => {
		const { world, schedule } = setUp(engine, BY_CREATION);
		world.create('slow');
		world.start('slow');
		await world.advance(MINUTE);
		await world.createDoneMany('old_', 101);
		await world.advance(HOUR);
		await schedule.activate();
		await schedule.polls(2);
		await world.advance(2 * HOUR);
		world.finish('slow');
		await schedule.polls(3);
		expect({
			slow: timesFired(world, ['slow']),
			shown: shownAfterLastFinish(world, 'slow'),
			oracle: verdict(world),
		}).toEqual({
			slow: [1],
			shown: expect.any(Number),
			oracle: 'clean',
		});
	});

	test("B3: n8n restarts in the middle of the starting point's read (601 old, pages of 20 at 1 s): none of the old fire, 3 later do", async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 1000 });
		const old = await world.createDoneMany('old_', 601);
		await schedule.activate();
		await schedule.restart();
		await schedule.polls(1);
		await schedule.restart();
		await schedule.polls(3);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(3);
		expect({
			oldFired: timesFired(world, old).filter((n) => n > 0).length,
			fresh: timesFired(world, fresh),
			oracle: verdict(world),
		}).toEqual({ oldFired: 0, fresh: [1, 1, 1], oracle: 'clean' });
	});

	test('B4: run again, the new finish 7 min EARLIER than the first (a worker behind, within OVERLAP): both outcomes fire', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		await world.createDoneMany('old_', 5);
		await schedule.activate();
		await schedule.polls(1);
		world.create('g1');
		world.finish('g1');
		await schedule.polls(1);
		world.rerun('g1');
		await world.advance(MINUTE);
		world.finish('g1', 'done', { workerSkewMs: -8 * MINUTE });
		await schedule.polls(3);
		expect({ g1: timesFired(world, ['g1']), oracle: verdict(world) }).toEqual({
			g1: [2],
			oracle: 'clean',
		});
	});

	test('B5: the status written in capitals (DONE; outside the spec): 3 finishing fire', async () => {
		const { world, schedule } = setUp(engine, BY_FINISH);
		world.statusText = (status) => status.toUpperCase();
		await world.createDoneMany('old_', 5);
		await schedule.activate();
		await schedule.polls(1);
		const fresh = await world.createDoneMany('n_', 3);
		await schedule.polls(2);
		expect({ fresh: timesFired(world, fresh) }).toEqual({ fresh: [1, 1, 1] });
	});

	test('B6: the Date header missing on every other answer: 3 finishing fire once, none of 7 old', async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, pageSize: 3 });
		world.omitDate = (request) => request % 2 === 0;
		const old = await world.createDoneMany('old_', 7);
		await schedule.activate();
		await schedule.polls(2);
		const fresh: string[] = [];
		for (let i = 0; i < 3; i++) {
			fresh.push(...(await world.createDoneMany(`n${i}_`, 1)));
			await schedule.polls(1);
		}
		await schedule.polls(2);
		expect({
			old: timesFired(world, old).filter((n) => n > 0).length,
			fresh: timesFired(world, fresh),
			oracle: verdict(world),
		}).toEqual({ old: 0, fresh: [1, 1, 1], oracle: 'clean' });
	});
});

describe.each(ENGINES)(
	"still more adversarial histories in n8n's %s poll engine",
	(engine: Engine) => {
		test("C1: done is written before finishedAt (a list answer shows it done with only updatedAt; a moment later finishedAt is the worker's time, 300 ms earlier): it fires once", async () => {
			const { world, schedule } = setUp(engine, BY_FINISH);
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			await schedule.polls(1);
			world.create('g1');
			await world.advance(5000);
			const outcome = world.finish('g1');
			// The status write: updatedAt now, finishedAt not yet there.
			let finishWritten = false;
			world.finishText = (ms, id) =>
				id === 'g1' && !finishWritten ? undefined : new Date(ms).toISOString();
			await schedule.polls(1);
			// The worker's own finish time lands: 300 ms before the status write.
			finishWritten = true;
			world.get('g1').finishedMs = outcome.finishedMs - 300;
			outcome.finishedMs -= 300;
			await schedule.polls(2);
			expect({ g1: timesFired(world, ['g1']), oracle: verdict(world) }).toEqual({
				g1: [1],
				oracle: 'clean',
			});
		});
	},
);

describe('overlapping polls (classic engine: a tick starts a poll with no check for the last one)', () => {
	test('C2: two polls at once over a read of 3 pages at 8 s: each of 41 new finishes comes out once', async () => {
		const world = new ServiceWorld({ ...BY_CREATION, pageLatencyMs: 8000 });
		world.serve();
		const poller = enginePoller('classic', { events: ['done'] });
		const schedule = new Schedule(world, poller);
		await world.createDoneMany('old_', 5);
		await schedule.activate();
		await schedule.polls(1);
		const fresh = await world.createDoneMany('n_', 41);
		const [first, second] = await poller.n8n.overlappingPolls();
		const out = [...(first?.[0] ?? []), ...(second?.[0] ?? [])].map((item) => String(item.json.id));
		const later = await schedule.polls(3);
		out.push(...later.flat().map((item) => item.id));
		const counts = fresh.map((id) => out.filter((other) => other === id).length);
		expect({
			once: counts.filter((n) => n === 1).length,
			twice: counts.filter((n) => n > 1).length,
		}).toEqual({ once: 41, twice: 0 });
	});
});

describe.each(ENGINES)(
	"finish-time forms and far times in n8n's %s poll engine",
	(engine: Engine) => {
		const forms: Array<[string, (ms: number) => string | number]> = [
			['epoch seconds', (ms) => Math.floor(ms / 1000)],
			['epoch seconds as text', (ms) => String(Math.floor(ms / 1000))],
			['epoch ms as text', (ms) => String(ms)],
			['ISO with +09:00', (ms) => new Date(ms + 9 * HOUR).toISOString().replace('Z', '+09:00')],
			['epoch seconds with a fraction', (ms) => ms / 1000],
			['ISO with microseconds', (ms) => new Date(ms).toISOString().replace('Z', '123Z')],
			[
				'SQL text (space, no zone)',
				(ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' '),
			],
		];
		test.each(forms)(
			'D1: finish times as %s: none of 5 old fire, 3 new fire once',
			async (_name, form) => {
				const { world, schedule } = setUp(engine, BY_FINISH);
				world.finishText = form;
				const old = await world.createDoneMany('old_', 5);
				await schedule.activate();
				await schedule.polls(1);
				const fresh: string[] = [];
				for (let i = 0; i < 3; i++) {
					fresh.push(...(await world.createDoneMany(`n${i}_`, 1)));
					await world.advance(1500);
					await schedule.polls(1);
				}
				await schedule.polls(1);
				expect({
					old: timesFired(world, old).filter((n) => n > 0).length,
					fresh: timesFired(world, fresh),
				}).toEqual({ old: 0, fresh: [1, 1, 1] });
			},
		);

		test('D2: no Date header; two finish after activation with finishedAt 2099: 3 finishing later still fire', async () => {
			const { world, schedule } = setUp(engine, BY_CREATION);
			world.omitDate = true;
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			await schedule.polls(1);
			for (const id of ['far1', 'far2']) {
				world.create(id);
				world.finish(id, 'done', { finishedMs: Date.UTC(2099, 0, 1) });
			}
			await schedule.polls(2);
			const fresh = await world.createDoneMany('n_', 3);
			await schedule.polls(3);
			expect({ fresh: timesFired(world, fresh), oracle: verdict(world) }).toEqual({
				fresh: [1, 1, 1],
				oracle: 'clean',
			});
		});
	},
);

describe.each(ENGINES)("deletions during a read in n8n's %s poll engine", (engine: Engine) => {
	const pagings: Array<WorldShape['paging']> = ['cursor', 'pages'];
	test.each(pagings)(
		'E1: %s paging, a backlog of 199 read over polls (pages of 20 at 4 s); between its polls the 41 newest (already fired) are deleted: the other 158 fire once',
		async (paging) => {
			const { world, schedule } = setUp(engine, {
				order: 'creation',
				paging,
				pageSize: 20,
				pageLatencyMs: 4000,
			});
			await world.createDoneMany('old_', 7);
			await schedule.activate();
			await schedule.polls(1);
			schedule.deactivate();
			await world.advance(HOUR);
			const backlog = await world.createDoneMany('b_', 199);
			await schedule.activate();
			const newest = backlog.slice(-41);
			world.delete(newest);
			await schedule.polls(8);
			const rest = backlog.slice(0, -41);
			const times = timesFired(world, rest);
			expect({
				once: times.filter((n) => n === 1).length,
				twice: times.filter((n) => n > 1).length,
			}).toEqual({ once: 158, twice: 0 });
		},
	);
});

describe.each(ENGINES)(
	"a worker ahead, and lists oldest first, in n8n's %s poll engine",
	(engine: Engine) => {
		test('F1: a worker 15 min ahead finished 3 generations 2 min before activation: they must not fire', async () => {
			const { world, schedule } = setUp(engine, BY_CREATION);
			await world.createDoneMany('old_', 5);
			const ahead = ['w1', 'w2', 'w3'].map((id) => world.createDone(id, 'done', 15 * MINUTE).id);
			await world.advance(2 * MINUTE);
			await schedule.activate();
			await schedule.polls(2);
			expect({ ahead: timesFired(world, ahead), oracle: verdict(world) }).toEqual({
				ahead: [0, 0, 0],
				oracle: 'clean',
			});
		});

		test('F2: a list oldest first (pages of 20); an old generation (page 1 of 6) run again an hour after activation: its new outcome fires', async () => {
			const { world, schedule } = setUp(engine, {
				order: 'oldestFirst',
				paging: 'pages',
				pageSize: 20,
			});
			const old = await world.createDoneMany('old_', 101);
			await world.advance(HOUR);
			await schedule.activate();
			await schedule.polls(2);
			const deep = old[3];
			world.rerun(deep);
			world.start(deep);
			await world.advance(2 * MINUTE);
			world.finish(deep);
			// Rule `whole-read-every`: a whole read (from page 1) at least every 5th read.
			await schedule.polls(6);
			expect({
				deep: timesFired(world, [deep]),
				oracle: verdict(world),
				// What the oracle excused (no limit should).
				excusedBy: judge(world).exempt,
			}).toEqual({
				deep: [1],
				oracle: 'clean',
				excusedBy: { L1: [], L2: [], L3: [], L4: [], L5: [], L9: [] },
			});
		});
	},
);

describe.each(ENGINES)(
	"a 40-minute render in a list by creation, in n8n's %s poll engine",
	(engine: Engine) => {
		test('B7: a render started, 23 quick ones made and finished in the next 3 min, the render finishes 40 min after it began: it fires', async () => {
			const { world, schedule } = setUp(engine, BY_CREATION);
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			world.create('render');
			world.start('render');
			await world.advance(MINUTE);
			const quick = await world.createDoneMany('q_', 23);
			await schedule.polls(40);
			world.finish('render');
			await schedule.polls(3);
			expect({
				quick: timesFired(world, quick).filter((n) => n === 1).length,
				render: timesFired(world, ['render']),
				oracle: verdict(world),
			}).toEqual({ quick: 23, render: [1], oracle: 'clean' });
		});
	},
);

describe.each(ENGINES)(
	"one answer from a front end with a wrong clock, in n8n's %s poll engine",
	(engine: Engine) => {
		test('H1: one list answer (of one poll) carries a Date a day ahead; the next 3 finishing (over the next hour) fire', async () => {
			const { world, schedule } = setUp(engine, BY_FINISH);
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			await schedule.polls(1);
			const wrong = world.listRequests + 1;
			const shown = world.dateHeaderAt;
			world.dateHeaderAt = (request, serviceMs) =>
				request === wrong ? serviceMs + DAY : shown(request, serviceMs);
			await schedule.polls(1);
			const fresh: string[] = [];
			for (let i = 0; i < 3; i++) {
				await world.advance(20 * MINUTE);
				fresh.push(...(await world.createDoneMany(`n${i}_`, 1)));
				await schedule.polls(1);
			}
			await schedule.polls(1);
			expect({ fresh: timesFired(world, fresh), oracle: verdict(world) }).toEqual({
				fresh: [1, 1, 1],
				oracle: 'clean',
			});
		});
	},
);

describe.each(ENGINES)("long reads broken up, in n8n's %s poll engine", (engine: Engine) => {
	test('J1: back after an hour off with 601 finished (pages of 20 at 1 s: a read of several polls); n8n restarts after every poll: each fires once', async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 1000 });
		await world.createDoneMany('old_', 7);
		await schedule.activate();
		await schedule.polls(1);
		schedule.deactivate();
		await world.advance(HOUR);
		const backlog = await world.createDoneMany('b_', 601);
		await schedule.activate();
		for (let i = 0; i < 9; i++) {
			await schedule.restart();
			await schedule.polls(1);
		}
		const times = timesFired(world, backlog);
		expect({
			once: times.filter((n) => n === 1).length,
			twice: times.filter((n) => n > 1).length,
			oracle: verdict(world),
		}).toEqual({ once: 601, twice: 0, oracle: 'clean' });
	});

	test('J2: the same backlog while the key alternates every poll between this account and another (with 4 finishing there): each fires once', async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 1000 });
		const other = `${world.homeAccount}_b`;
		await world.createDoneMany('old_', 7);
		world.create('ob_0', other);
		world.finish('ob_0');
		await schedule.activate();
		await schedule.polls(1);
		world.useAccount(other);
		await schedule.polls(1);
		world.useAccount(world.homeAccount);
		schedule.deactivate();
		await world.advance(HOUR);
		const backlog = await world.createDoneMany('b_', 601);
		await schedule.activate();
		const others: string[] = [];
		for (let i = 0; i < 16; i++) {
			const account = i % 2 ? world.homeAccount : other;
			world.useAccount(account);
			if (i % 4 === 0) {
				world.create(`o_${i}`, other);
				world.finish(`o_${i}`);
				others.push(`o_${i}`);
			}
			await schedule.polls(1);
		}
		const times = timesFired(world, backlog);
		expect({
			once: times.filter((n) => n === 1).length,
			twice: times.filter((n) => n > 1).length,
			others: timesFired(world, others),
			oracle: verdict(world),
		}).toEqual({ once: 601, twice: 0, others: [1, 1, 1, 1], oracle: 'clean' });
	});
});

describe.each(ENGINES)(
	"a list with updatedAt and no finish time, in n8n's %s poll engine",
	(engine: Engine) => {
		const orders: Array<WorldShape['order']> = ['creation', 'update'];
		test.each(orders)(
			'K1: by %s; 3 finish and fire; then a bulk edit tags them and 5 old ones: nothing fires again',
			async (order) => {
				const { world, schedule } = setUp(engine, {
					order,
					paging: 'pages',
					pageSize: 20,
					timeFields: ['createdAt', 'updatedAt'],
				});
				const old = await world.createDoneMany('old_', 5);
				await schedule.activate();
				await schedule.polls(1);
				const fresh = await world.createDoneMany('n_', 3);
				await schedule.polls(2);
				await world.advance(MINUTE);
				world.touch([...fresh, ...old]);
				await schedule.polls(2);
				expect({
					fresh: timesFired(world, fresh),
					old: timesFired(world, old),
					oracle: verdict(world),
				}).toEqual({ fresh: [1, 1, 1], old: [0, 0, 0, 0, 0], oracle: 'clean' });
			},
		);
	},
);

describe.each(ENGINES)("the order within a poll, in n8n's %s poll engine", (engine: Engine) => {
	test.each(['creation', 'finish', 'none'] as Array<WorldShape['order']>)(
		'M1: a list by %s; 7 finish on workers up to 5 min apart, read in one poll: they come out oldest finish first',
		async (order) => {
			const { world, schedule } = setUp(engine, { order, paging: 'pages', pageSize: 3 });
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			await schedule.polls(1);
			const skews = [0, -5, 3, -2, 4, -4, 1];
			skews.forEach((skew, i) => world.createDone(`s_${i}`, 'done', skew * MINUTE));
			await world.advance(1000);
			const fired = (await schedule.polls(1)).flat();
			const finishOf = (id: string) => world.get(id).finishedMs!;
			const out = fired.map((item) => item.id);
			const sorted = [...out].sort((a, b) => finishOf(a) - finishOf(b));
			const later = (await schedule.polls(9)).map((items) => items.length);
			expect({
				count: out.length,
				order: out,
				later,
				oracle: verdict(world),
			}).toEqual({
				count: 7,
				order: sorted,
				later: [0, 0, 0, 0, 0, 0, 0, 0, 0],
				oracle: 'clean',
			});
		},
	);
});

describe.each(ENGINES)("a list cut to its newest 50, in n8n's %s poll engine", (engine: Engine) => {
	test('N1: 83 finished 2 min before activation (33 beyond the cut); a minute after, the user deletes the 31 newest: none of the 83 fire', async () => {
		const { world, schedule } = setUp(engine, { ...BY_CREATION, newestN: 50 });
		const batch = await world.createDoneMany('old_', 83);
		await world.advance(2 * MINUTE);
		await schedule.activate();
		await world.advance(MINUTE);
		world.delete(batch.slice(-31));
		await schedule.polls(2);
		expect({
			fired: timesFired(world, batch).filter((n) => n > 0).length,
			oracle: verdict(world),
		}).toEqual({ fired: 0, oracle: 'clean' });
	});
});

describe.each(ENGINES)(
	"deletions between two pages of one poll, in n8n's %s poll engine",
	(engine: Engine) => {
		test('P1: 101 finished 3 min before activation (pages of 20 at 2 s); while the activation read is on page 1, the user deletes the 20 newest: none of the 101 fire', async () => {
			const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 2000 });
			const batch = await world.createDoneMany('old_', 101);
			await world.advance(3 * MINUTE);
			const first = world.listRequests + 2;
			world.beforeAnswer = (request) => {
				if (request === first) world.delete(batch.slice(-20));
			};
			await schedule.activate();
			world.beforeAnswer = undefined;
			await schedule.polls(2);
			expect({
				fired: timesFired(world, batch).filter((n) => n > 0).length,
				oracle: verdict(world),
			}).toEqual({ fired: 0, oracle: 'clean' });
		});

		test('P2: back after an hour off with 101 finished (pages of 20 at 2 s); during the read the user deletes 20 it already read: the other 81 fire once', async () => {
			const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 2000 });
			await world.createDoneMany('old_', 7);
			await schedule.activate();
			await schedule.polls(1);
			schedule.deactivate();
			await world.advance(HOUR);
			const backlog = await world.createDoneMany('b_', 101);
			const first = world.listRequests + 2;
			world.beforeAnswer = (request) => {
				if (request === first) world.delete(backlog.slice(-20));
			};
			await schedule.activate();
			world.beforeAnswer = undefined;
			await schedule.polls(3);
			const times = timesFired(world, backlog.slice(0, -20));
			expect({
				once: times.filter((n) => n === 1).length,
				twice: times.filter((n) => n > 1).length,
			}).toEqual({ once: 81, twice: 0 });
		});
	},
);

describe.each(ENGINES)(
	"an activation read cut short, then a restart, in n8n's %s poll engine",
	(engine: Engine) => {
		test('Q1: 61 old (pages of 20 at 300 ms); the activation read fails on page 2 (a 429 asking 5 min); n8n restarts; 3 finish: the 3 fire once, none of the 61', async () => {
			const { world, schedule } = setUp(engine, { ...BY_CREATION, pageLatencyMs: 300 });
			const old = await world.createDoneMany('old_', 61);
			world.failRequests.set(2, 300);
			await schedule.activate();
			await schedule.restart();
			await schedule.polls(1);
			await schedule.restart();
			const fresh = await world.createDoneMany('n_', 3);
			await schedule.polls(4);
			expect({
				old: timesFired(world, old).filter((n) => n > 0).length,
				fresh: timesFired(world, fresh),
				oracle: verdict(world),
			}).toEqual({ old: 0, fresh: [1, 1, 1], oracle: 'clean' });
		});
	},
);

describe.each(ENGINES)(
	"failed ones without a finishedAt, in n8n's %s poll engine",
	(engine: Engine) => {
		test('K2: finishedAt only on done ones (failed ones carry updatedAt); 3 fail and fire; a bulk edit tags them: nothing fires again', async () => {
			const world = new ServiceWorld(BY_FINISH);
			world.serve();
			const schedule = new Schedule(world, enginePoller(engine, { events: ['done', 'failed'] }));
			world.finishText = (ms, id) =>
				world.get(id).status === 'failed' ? undefined : new Date(ms).toISOString();
			await world.createDoneMany('old_', 5);
			await schedule.activate();
			await schedule.polls(1);
			const failed = await world.createDoneMany('f_', 3, 'failed');
			await schedule.polls(2);
			await world.advance(MINUTE);
			world.touch(failed);
			await schedule.polls(2);
			const judged = judge(world, { events: ['done', 'failed'] });
			expect({
				failed: timesFired(world, failed),
				oracle: judged.clean ? 'clean' : judged.summary,
			}).toEqual({ failed: [1, 1, 1], oracle: 'clean' });
		});
	},
);

describe.each(ENGINES)("pages that overlap, in n8n's %s poll engine", (engine: Engine) => {
	test.each(['creation', 'finish', 'none'] as Array<WorldShape['order']>)(
		'S1: a list by %s whose pages of 20 each repeat 7 of the page before; 43 finish between two polls: each fires once, none of 29 old',
		async (order) => {
			const { world, schedule } = setUp(engine, {
				order,
				paging: 'hasMore',
				pageSize: 20,
				pageOverlap: 7,
			});
			const old = await world.createDoneMany('old_', 29);
			await schedule.activate();
			await schedule.polls(1);
			const fresh = await world.createDoneMany('n_', 43);
			await schedule.polls(3);
			const times = timesFired(world, fresh);
			expect({
				once: times.filter((n) => n === 1).length,
				old: timesFired(world, old).filter((n) => n > 0).length,
				oracle: verdict(world),
			}).toEqual({ once: 43, old: 0, oracle: 'clean' });
		},
	);
});
