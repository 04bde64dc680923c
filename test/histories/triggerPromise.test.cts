/**
 * The cases the model-based search found (issue #38), one test each, through the real poll() in
 * the simulated poll engines: each broke "every generation finishing after activation fires
 * once, nothing before it fires" before the memory kept the newest ids in list order.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import {
	plan,
	baseline,
	EMPTY_START_MAX_NEW,
	MAX_DUE,
	type GenerationState,
} from '../../nodes/SocialContentTrigger/generationState';
import { KeyMemory } from '../../nodes/SocialContentTrigger/idMemory';
import { clockNow } from '../helpers/clock.cjs';
import { apiKeyCredentials, pingAnswer, servePing } from '../helpers/fixtures.cjs';
import {
	GENERATIONS_PATH,
	GenerationService,
	type ListShape,
} from '../helpers/generationService.cjs';
import { ENGINES, SimulatedN8n, type Engine } from '../helpers/pollEngines.cjs';
import { GROWS_AT_END_BY_COMPLETION, GROWS_AT_END_BY_UPDATE } from '../helpers/triggerModel.cjs';

type PollResult = INodeExecutionData[][] | null;
const ids = (...results: PollResult[]) =>
	results.flatMap((result) => (result?.[0] ?? []).map((item) => String(item.json.id)));
const NO_TIMESTAMPS: ListShape = { timestamps: 'none', order: 'creation' };

beforeEach(() => {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
});

/** Polls `count` times and returns every id fired. */
async function quietPolls(n8n: SimulatedN8n, count: number): Promise<string[]> {
	const fired: string[] = [];
	for (let poll = 0; poll < count; poll++) fired.push(...ids(await n8n.poll()));
	return fired;
}

/** A list that grows at its end, served; `pageDelayMs` 300 makes the poll's budget bind. */
function growingAtEnd(shape: ListShape, pageDelayMs = 300): GenerationService {
	const service = new GenerationService(shape);
	service.pageDelayMs = pageDelayMs;
	service.serve();
	return service;
}

/**
 * With finish times, outputs read by id: 3 old, then 5 new whose newest's details fail at every
 * read; the first poll after them fires the other 4 (the newest stays due).
 */
async function newestDetailsFailing(engine: Engine) {
	const service = new GenerationService({
		timestamps: 'finish',
		order: 'completion',
		outputsInList: false,
	});
	service.serve();
	service.createDoneMany('old_', 3);
	const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
	expect(await n8n.activate()).toBeNull();
	expect(await quietPolls(n8n, 1)).toEqual([]);
	const fresh = service.createDoneMany('new_', 5);
	service.detailFailures.set('new_4', Infinity);
	expect(await quietPolls(n8n, 1)).toEqual(fresh.slice(0, 4));
	return { service, n8n };
}

describe.each(ENGINES)('in the %s engine', (engine: Engine) => {
	test('1,511 finished at activation (more than the activation record holds): the first scheduled polls fire nothing', async () => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany('old_', 1511);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		expect(await quietPolls(n8n, 3)).toEqual([]);
		service.createDone('new');
		expect(await quietPolls(n8n, 2)).toEqual(['new']);
	});

	test.each<[string, [number, unknown]]>([
		['{"message":"maintenance"}', [200, { message: 'maintenance' }]],
		['[]', [200, []]],
		['204', [204, '']],
		['{"generations":null}', [200, { generations: null }]],
	])(
		'the first read answers %s: no starting point from it; the next read is one, and 300 old ones never fire',
		async (_name, answer) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDoneMany('old_', 300);
			service.listAnswers.push(answer);
			const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
			expect(await n8n.activate()).toBeNull();
			expect(await quietPolls(n8n, 3)).toEqual([]);
			service.createDone('new');
			expect(await quietPolls(n8n, 2)).toEqual(['new']);
		},
	);

	test.each([503, 429])(
		'the activation poll fails (%i): a scheduled poll takes the starting point and keeps it, though nothing is saved until one emits',
		async (status) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			service.createDoneMany('old_', 40);
			service.listFailStatus = status;
			service.listFailures = 1;
			const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
			expect(await n8n.activate()).toBeNull();
			expect(n8n.activationErrors).toEqual([]);
			expect(await quietPolls(n8n, 3)).toEqual([]); // the first takes the starting point
			service.createDone('a');
			service.createDone('b');
			expect(await quietPolls(n8n, 3)).toEqual(['a', 'b']);
		},
	);

	test('with finish times: one whose details cannot be read at its first poll comes out at a poll whose answer holds no list, and never fires again (soak seed 55204)', async () => {
		const { service, n8n } = await newestDetailsFailing(engine);
		service.detailFailures.delete('new_4');
		service.listAnswers.push([200, { message: 'maintenance' }]);
		expect(await quietPolls(n8n, 1)).toEqual(['new_4']); // due, fired with no list shown
		expect(await quietPolls(n8n, 3)).toEqual([]);
	});

	test('with finish times: one whose details cannot be read comes out after its last try at polls whose answers hold no list, and never fires again', async () => {
		const { service, n8n } = await newestDetailsFailing(engine);
		for (let poll = 0; poll < 7; poll++)
			service.listAnswers.push([200, { message: 'maintenance' }]);
		// Its tries run out at a poll with no list: it comes out with the error, no details.
		const items: IDataObject[] = [];
		for (let poll = 0; poll < 4; poll++)
			items.push(...((await n8n.poll())?.[0] ?? []).map((item) => item.json));
		expect(items.map((item) => item.id)).toEqual(['new_4']);
		expect(items[0]).toMatchObject({ status: 'done', outputs: [] });
		expect(String(items[0].error)).toMatch(/details after 5 tries/);
		service.detailFailures.delete('new_4');
		expect(await quietPolls(n8n, 6)).toEqual([]);
	});

	test('one running at activation, then 243 finish in a list that grows at its end, pages of 7 at 300 ms: every one fires once (soak seed 55304)', async () => {
		const service = growingAtEnd({
			...GROWS_AT_END_BY_COMPLETION,
			order: 'creation',
			pendingAt: undefined,
		});
		service.create('running');
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		// Nothing remembered: the first read, from the top, finds the list runs the other way
		// before its time is up; read on from the end, it must not mix in what it read from the top.
		const done = service.createDoneMany('new_', 243);
		const fired = await quietPolls(n8n, 8);
		expect([...fired].sort()).toEqual([...done].sort());
	});

	test('a list that grows at its end, running ones on its first page, pages of 7 at 300 ms: the starting point taken after a failed activation over 603 finished, then 600 finish: each fires once (soak seed 55308)', async () => {
		const service = growingAtEnd(GROWS_AT_END_BY_COMPLETION);
		for (let index = 0; index < 10; index++) service.create(`running_${index}`);
		service.listFailStatus = 503;
		service.listFailures = 1;
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		await n8n.activate();
		service.listFailures = 0;
		service.createDoneMany('old_', 603);
		// The starting point: its read from the top finds the order past a first page of running
		// ones; the rest of the poll's time reads it from the end (before: one entry kept).
		expect(await quietPolls(n8n, 1)).toEqual([]);
		// They finish while the starting point's read goes on, more than OVERLAP (10 minutes, on the
		// service's clock) after it began: new, not part of the starting point (docs: L3).
		service.advance(11 * 60_000);
		const fresh = service.createDoneMany('new_', 600);
		// Before #49, each read over several polls kept the deepest unknown (old ones below the one it
		// knew) and left the new ones out, again and again: none fired.
		// Polled until they are out (at most 60 polls), then twice more: none again.
		const fired: string[] = [];
		for (let poll = 0; poll < 60 && fired.length < fresh.length; poll++)
			fired.push(...(await quietPolls(n8n, 1)));
		fired.push(...(await quietPolls(n8n, 2)));
		expect([...fired].sort()).toEqual([...fresh].sort());
	});

	test("a read from the end of a list that grows there goes on over two polls; meanwhile one starts, placed at the list's start, and moves the rest down a place: none is skipped (soak seed 55308)", async () => {
		const service = growingAtEnd(GROWS_AT_END_BY_COMPLETION);
		service.createDoneMany('old_', 15);
		for (let index = 0; index < 6; index++) service.create(`running_${index}`);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		const fresh = service.createDoneMany('new_', 303);
		const fired = await quietPolls(n8n, 1); // the read goes on at the next poll
		service.create('started');
		fired.push(...(await quietPolls(n8n, 6)));
		expect([...fired].sort()).toEqual([...fresh].sort());
	});

	test('a list by update that grows at its end, too short yet to show its order (4 finished, 4 running at its top), pages of 7: 2 finish at its end, on its second page: the done one fires (soak seed 55314)', async () => {
		const service = growingAtEnd(GROWS_AT_END_BY_UPDATE, 0);
		service.createDoneMany('old_', 4);
		for (let index = 0; index < 4; index++) service.create(`running_${index}`);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		service.createDone('new_failed', 'failed');
		service.createDone('new_done');
		expect(await quietPolls(n8n, 4)).toEqual(['new_done']);
	});

	test('a list by update that grows at its end, pages of 7 at 300 ms: the one finished at activation is run again (done) while 243 finish, then one running finishes and a read goes on over polls: its run again fires (soak seed 55314)', async () => {
		const service = growingAtEnd(GROWS_AT_END_BY_UPDATE);
		service.createDone('old');
		for (let index = 0; index < 4; index++) service.create(`running_${index}`);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		const fresh: string[] = [];
		for (let index = 0; index < 243; index++) {
			service.createDone(`new_${index}`, index % 2 ? 'done' : 'failed');
			if (index % 2) fresh.push(`new_${index}`);
		}
		service.rerun('old');
		service.finish('old', 'done');
		const fired = await quietPolls(n8n, 1);
		// Known, and finished after the mark: a read going on keeps it whole, not as "known".
		service.finish('running_0', 'done');
		fired.push(...(await quietPolls(n8n, 8)));
		expect([...fired].sort()).toEqual([...fresh, 'old', 'running_0'].sort());
	});

	test('a list by creation that grows at its end, pages of 7 at 300 ms: 701 finish, and the oldest is run again (done) while the read from the end goes on over polls: it and all 701 fire once (soak seed 55326)', async () => {
		const service = growingAtEnd({ ...GROWS_AT_END_BY_COMPLETION, order: 'creation' });
		service.createDoneMany('old_', 11);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		// More than one poll reads: the read keeps the newest 50 and the deepest 250 it read.
		const fresh = service.createDoneMany('new_', 701);
		const fired = await quietPolls(n8n, 2);
		service.rerun('old_0');
		service.finish('old_0', 'done');
		// Its finish, the latest, moved the mark while the 401 left out waited for the next read:
		// those that finished over a minute before it were placed old (before: 390 never fired).
		fired.push(...(await quietPolls(n8n, 12)));
		expect([...fired].sort()).toEqual([...fresh, 'old_0'].sort());
	});

	test('a list cut to its newest 100: 4 seen running only by quiet polls finish (failed) during a failed poll, 103 more finish, the workflow is saved with another credential of the same account: the 4 fire once (soak seed 55202)', async () => {
		const service = new GenerationService({
			timestamps: 'none',
			order: 'creation',
			pendingAt: 'bottom',
			window: 100,
			outputsInList: true,
		});
		service.serve();
		service.createDone('old');
		const n8n = new SimulatedN8n(engine, { events: ['done', 'failed'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		expect(await quietPolls(n8n, 1)).toEqual([]);
		const running = ['r1', 'r2', 'r3', 'r4'];
		for (const id of running) service.create(id);
		expect(await quietPolls(n8n, 1)).toEqual([]); // seen running, nothing saved in n8n's store
		for (const id of running) service.finish(id, 'failed');
		service.listFailStatus = 429;
		service.listFailures = 1;
		expect(await quietPolls(n8n, 1)).toEqual([]);
		expect(n8n.pollErrors).toHaveLength(1);
		// The 4 drop out of the list's view, and so do the first 3 of these (never shown: not owed).
		const inView = service.createDoneMany('new_', 103).slice(3);
		n8n.credentialId = 'credential-2';
		n8n.deactivate();
		const fired = [...ids(await n8n.activate()), ...(await quietPolls(n8n, 4))];
		expect([...fired].sort()).toEqual([...inView, ...running].sort());
	});
});

test.each<Engine>(['durable', 'durableCursors'])(
	'%s: a read that never answers ends within the poll budget (no full-length retries)',
	async (engine) => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany('old_', 5);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		n8n.durablePollBudgetMs = 3000; // ours: 80 % of it, 2.4 s
		await n8n.activate();
		nock.cleanAll();
		servePing();
		nock('https://app.example.com')
			.get(GENERATIONS_PATH)
			.query(true)
			.delay(60_000)
			.reply(200, [])
			.persist();
		const started = clockNow();
		await n8n.poll();
		const tookMs = clockNow() - started;
		expect(n8n.pollErrors).toHaveLength(1);
		// One try of what is left (at least 2 s), and no retry that cannot fit: was 3 tries and their waits.
		expect(tookMs).toBeLessThan(2400 + 2000);
	},
);

test('durable cursors, a list sorted by update in pages of 101, 2,031 finished at activation (more than the activation record holds), a quiet poll: one 1,399 deep touched does not fire', async () => {
	const service = new GenerationService({ timestamps: 'none', order: 'update', pageSize: 101 });
	service.serve();
	const old = service.createDoneMany('old_', 2031);
	const n8n = new SimulatedN8n('durableCursors', { events: ['done'] }, apiKeyCredentials);
	expect(await n8n.activate()).toBeNull(); // quiet: n8n commits no cursor
	expect(await quietPolls(n8n, 1)).toEqual([]);
	service.touch(old[old.length - 1 - 1399]);
	expect(await quietPolls(n8n, 2)).toEqual([]);
	service.createDone('new');
	expect(await quietPolls(n8n, 2)).toEqual(['new']);
});

test('a list sorted by update, paged 10, 300 finished: the starting point reads them all, so an old one touched later does not fire', async () => {
	const service = new GenerationService({ timestamps: 'none', order: 'update', pageSize: 10 });
	service.serve();
	const old = service.createDoneMany('old_', 300);
	const n8n = new SimulatedN8n('classic', { events: ['done'] }, apiKeyCredentials);
	await n8n.activate();
	service.touch(old[10]); // deep in the list: page 29 of 30
	service.touch(old[0]);
	expect(await quietPolls(n8n, 2)).toEqual([]);
	service.createDone('new');
	expect(await quietPolls(n8n, 2)).toEqual(['new']);
});

test('the credential changes to another account: a new starting point, none of its 200 fire, it says so in the log', async () => {
	const info = jest.spyOn(Container.get(Logger), 'info');
	const first = new GenerationService(NO_TIMESTAMPS);
	first.serve();
	first.createDoneMany('a_', 20);
	const n8n = new SimulatedN8n('durable', { events: ['done'] }, apiKeyCredentials);
	await n8n.activate();
	first.createDone('a_new');
	expect(await quietPolls(n8n, 1)).toEqual(['a_new']);

	// The workflow now uses another credential (another account on the instance).
	nock.cleanAll();
	const other = new GenerationService(NO_TIMESTAMPS);
	other.serve();
	other.createDoneMany('b_', 200);
	const saved = n8n.saved as { 'node:Trigger': IDataObject };
	expect(saved['node:Trigger']).toBeDefined();
	pingAnswer.organization = 'org_other';
	expect(await quietPolls(n8n, 3)).toEqual([]);
	expect(info.mock.calls.map(([message]) => String(message)).join('\n')).toMatch(
		/another account \(or another instance\); a new starting point is taken/,
	);
	other.createDone('b_new');
	expect(await quietPolls(n8n, 2)).toEqual(['b_new']);
	info.mockRestore();
});

test.each(ENGINES)(
	'%s: one running at activation, then a poll that reaches another account (a quiet new start), then it finishes: it fires once (soak seed 55001, shrunk)',
	async (engine) => {
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		const running = 'running';
		service.create(running);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		pingAnswer.organization = 'org_other';
		expect(await quietPolls(n8n, 1)).toEqual([]);
		service.finish(running, 'done');
		expect(await quietPolls(n8n, 3)).toEqual([running]);
	},
);

describe('what decides, given a remembered hash', () => {
	const hour = 3_600_000;
	const state = (finishedUpToMs: number): GenerationState => ({
		...baseline({ entries: [{ id: 'seed', status: 'done' }] }, clockNow()),
		finishedUpToMs,
	});
	// A memory that holds the new id's hash too: what a collision with a new id looks like.
	const holding = (...ids: string[]) => new KeyMemory().withOnTop(ids.map((id) => `${id}|done`));

	test('a finish time after every one seen fires, whatever the memory says', () => {
		const t = Date.UTC(2026, 10, 25);
		const decided = plan(
			state(t),
			{
				entries: [
					{ id: 'new', status: 'done', finishedAt: new Date(t + hour).toISOString() },
					{ id: 'seed', status: 'done', finishedAt: new Date(t).toISOString() },
				],
			},
			clockNow(),
			holding('new', 'seed'),
		);
		expect(decided.finished.map((entry) => entry.id)).toEqual(['new']);
	});

	test('new ones with and without finish times come out in one order: those without first (oldest position first), then by time', () => {
		const t = Date.UTC(2026, 10, 25);
		let seed = 7;
		const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
		for (let round = 0; round < 211; round++) {
			const entries = Array.from({ length: 2 + Math.floor(random() * 37) }, (_, at) =>
				random() < 0.4
					? { id: `u${at}`, status: 'done' }
					: {
							id: `t${at}`,
							status: 'done',
							finishedAt: new Date(t + 1 + Math.floor(random() * 9) * hour).toISOString(),
						},
			);
			const decided = plan(state(t), { entries }, clockNow(), holding('seed'));
			const untimed = entries.filter((entry) => !('finishedAt' in entry)).reverse();
			const timed = entries
				.map((entry, at) => ({ entry, at }))
				.filter(({ entry }) => 'finishedAt' in entry)
				.sort(
					(a, b) =>
						Date.parse(String(a.entry.finishedAt)) - Date.parse(String(b.entry.finishedAt)) ||
						b.at - a.at,
				)
				.map(({ entry }) => entry);
			expect(decided.finished.map((entry) => entry.id)).toEqual(
				[...untimed, ...timed].map((entry) => entry.id),
			);
		}
	});

	test('a read that left new ones out above the one it knows remembers the old ones below it, so the next read keeps the new ones (soak seed 55308)', () => {
		const old = Array.from({ length: 11 }, (_, index) => ({ id: `old_${index}`, status: 'done' }));
		const decided = plan(
			state(clockNow()),
			{
				entries: [{ id: '-0', status: '-', gap: true }, { id: 'seed', status: 'done' }, ...old],
				reachedEnd: true,
			},
			clockNow(),
			holding('seed'),
		);
		expect(decided.finished).toEqual([]);
		expect(decided.listed).toEqual(['seed|done', ...old.map(({ id }) => `${id}|done`)]);
		// Below a gap under the one it knows, they stay unknown: those left out would look new.
		const below = plan(
			state(clockNow()),
			{
				entries: [{ id: 'seed', status: 'done' }, { id: '-0', status: '-', gap: true }, ...old],
				reachedEnd: true,
			},
			clockNow(),
			holding('seed'),
		);
		expect(below.listed).toEqual(['seed|done']);
	});

	test('without finish times, a remembered id does not fire (the odds of a false match are in the README)', () => {
		const decided = plan(
			state(clockNow()),
			{
				entries: [
					{ id: 'x', status: 'done' },
					{ id: 'seed', status: 'done' },
				],
			},
			clockNow(),
			holding('x', 'seed'),
		);
		expect(decided.finished).toEqual([]);
	});
});

describe('a poll ends within its budget whatever the files do', () => {
	/** A durable-engine trigger that downloads outputs, with this budget per scheduled poll, activated. */
	async function downloading(shape: ListShape, budgetMs: number) {
		const service = new GenerationService(shape);
		service.serve();
		service.createDone('seed');
		const n8n = new SimulatedN8n(
			'durable',
			{ events: ['done'], downloadOutputs: true },
			apiKeyCredentials,
		);
		n8n.durablePollBudgetMs = budgetMs;
		await n8n.activate();
		return { service, n8n };
	}

	test('a file that trickles in for ever: the poll ends in time and carries the generation over; it fires once when the file comes', async () => {
		const { service, n8n } = await downloading(NO_TIMESTAMPS, 4000); // ours: 3.2 s
		service.tricklingFiles.add('slow');
		service.createDone('slow');
		const started = clockNow();
		expect(await n8n.poll()).toBeNull();
		expect(clockNow() - started).toBeLessThan(3200 + 1500);
		expect(n8n.pollErrors).toEqual([]);
		service.tricklingFiles.clear();
		expect(await quietPolls(n8n, 2)).toEqual(['slow']);
	});

	test('more generations than the due list holds carried over past the budget: none lost, none twice', async () => {
		// Ours: 2 s, of which 0.5 s to start generations.
		const { service, n8n } = await downloading({ timestamps: 'finish', order: 'creation' }, 2500);
		service.fileDelayMs = 3;
		const made = service.createDoneMany('c_', 509);
		const perPoll: number[] = [];
		const fired: string[] = [];
		// As many polls as it takes (a loaded machine fits fewer in each): the outcome is what counts.
		for (let poll = 0; poll < 300 && fired.length < made.length; poll++) {
			const once = ids(await n8n.poll());
			perPoll.push(once.length);
			fired.push(...once);
		}
		// More carried over after the first poll than the due list holds (MAX_DUE).
		expect(made.length - perPoll[0]).toBeGreaterThan(MAX_DUE);
		expect([...fired].sort()).toEqual([...made].sort());
	}, 60_000);
});

describe('a starting point on an empty list (a new account, or an answer of [] for a moment)', () => {
	test.each(ENGINES)(
		'%s: the first generations of a new account fire, even finished between two polls',
		async (engine) => {
			const service = new GenerationService(NO_TIMESTAMPS);
			service.serve();
			const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
			expect(await n8n.activate()).toBeNull();
			service.createDone('first');
			service.createDone('second');
			expect(await quietPolls(n8n, 3)).toEqual(['first', 'second']);
		},
	);

	test(`more than ${EMPTY_START_MAX_NEW} finished at the first read after an empty one, with no finish times: a history, none fires (it says so in the log)`, async () => {
		const info = jest.spyOn(Container.get(Logger), 'info');
		const service = new GenerationService(NO_TIMESTAMPS);
		service.serve();
		service.createDoneMany('old_', EMPTY_START_MAX_NEW + 1);
		service.listAnswers.push([200, []]);
		const n8n = new SimulatedN8n('classic', { events: ['done'] }, apiKeyCredentials);
		await n8n.activate();
		expect(await quietPolls(n8n, 2)).toEqual([]);
		expect(info.mock.calls.map(([message]) => String(message)).join('\n')).toMatch(
			/list was empty when the trigger started/,
		);
		service.createDone('new');
		expect(await quietPolls(n8n, 1)).toEqual(['new']);
		info.mockRestore();
	});

	test('with finish times: what finished after the empty read fires, however many; what finished long before does not', async () => {
		const service = new GenerationService({ timestamps: 'finish', order: 'completion' });
		service.serve(); // its clock: 2026-11-22, days before n8n's
		service.createDoneMany('old_', 40);
		// Long before on the service's own clock: more than the overlap (10 minutes) before the answer.
		service.advance(11 * 60_000);
		service.listAnswers.push([200, []]);
		const n8n = new SimulatedN8n('durable', { events: ['done'] }, apiKeyCredentials);
		await n8n.activate();
		service.realTime = true;
		const fresh = service.createDoneMany('new_', EMPTY_START_MAX_NEW + 3);
		expect(await quietPolls(n8n, 2)).toEqual(fresh);
	});
});

test('numeric ids above 2^53 stay apart: two new generations, two items, their ids as the service wrote them', async () => {
	const entry = (id: string) =>
		`{"id":${id},"status":"done","format":"slideshow","credits":1,"outputs":[{"id":"m${id}","path":"/uploads/${id}.png"}]}`;
	const answers = [
		`[${entry('17')}]`,
		`[${entry('9007199254740993')},${entry('9007199254740992')},${entry('17')}]`,
	];
	nock('https://app.example.com')
		.get(GENERATIONS_PATH)
		.query(true)
		.times(3)
		.reply(() => [
			200,
			answers.length > 1 ? answers.shift()! : answers[0],
			{ 'Content-Type': 'application/json' },
		]);
	const n8n = new SimulatedN8n('classic', { events: ['done'] }, apiKeyCredentials);
	await n8n.activate();
	expect(await quietPolls(n8n, 2)).toEqual(['9007199254740992', '9007199254740993']);
});

test.each(ENGINES)(
	'%s: a list that stops giving finish times: the ones seen queued fire when they finish, once (rule pending-fires; the real-n8n e2e does the same)',
	async (engine) => {
		const service = new GenerationService({ timestamps: 'finish', order: 'creation' });
		service.serve();
		service.createDoneMany('old_', 5);
		const n8n = new SimulatedN8n(engine, { events: ['done'] }, apiKeyCredentials);
		expect(await n8n.activate()).toBeNull();
		service.shape.timestamps = 'none';
		service.create('older');
		service.create('newer');
		expect(await n8n.poll()).toBeNull();
		service.finish('newer');
		n8n.deactivate();
		const fired = [...((await n8n.activate())?.[0] ?? [])];
		fired.push(...((await n8n.poll())?.[0] ?? []));
		expect(fired.map((i) => i.json.id)).toEqual(['newer']);
		service.finish('older');
		expect(((await n8n.poll())?.[0] ?? []).map((i) => i.json.id)).toEqual(['older']);
		expect(await n8n.poll()).toBeNull();
	},
);
