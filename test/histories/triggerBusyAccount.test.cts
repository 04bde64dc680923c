/**
 * What a busy account does that the other trigger tests do not combine (issue #49): a backlog
 * after an outage, a late update in a paged list, a clean-up, a key swapped, a bad finish time,
 * many failing at once, a generation run again, a post queued again. Each case failed before.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { INodeExecutionData } from 'n8n-workflow';
import nock from 'nock';

import { baseline, keyOf, plan, settle } from '../../nodes/SocialContentTrigger/generationState';
import { clockNow } from '../helpers/clock.cjs';
import { apiKeyCredentials, pingAnswer, servePing } from '../helpers/fixtures.cjs';
import { GenerationService, type ListShape } from '../helpers/generationService.cjs';
import { SimulatedN8n } from '../helpers/pollEngines.cjs';
import { PostService } from '../helpers/postService.cjs';

type PollResult = INodeExecutionData[][] | null;
const ids = (result: PollResult) => (result?.[0] ?? []).map((item) => String(item.json.id));

beforeEach(() => {
	nock.cleanAll();
	pingAnswer.organization = 'org_1';
	servePing();
});

async function polls(n8n: SimulatedN8n, count: number): Promise<string[][]> {
	const fired: string[][] = [];
	for (let poll = 0; poll < count; poll++) fired.push(ids(await n8n.poll()));
	return fired;
}

/** An activated trigger (classic engine unless said) over a service with this shape and history. */
async function started(
	shape: ListShape,
	history: (service: GenerationService) => void,
	parameters: Record<string, unknown> = { events: ['done'] },
) {
	const service = new GenerationService(shape);
	service.serve();
	history(service);
	const n8n = new SimulatedN8n('classic', parameters as never, apiKeyCredentials);
	expect(await n8n.activate()).toBeNull();
	return { service, n8n };
}

/** Activated over 37 old ones, then deactivated while `size` finish (pages answer in 300 ms). */
async function afterOutage(shape: ListShape, size: number) {
	const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 37));
	n8n.deactivate();
	service.pageDelayMs = 300;
	return { service, n8n, backlog: service.createDoneMany('b_', size) };
}

describe('a backlog deeper than one poll reads', () => {
	test('pages of 20 at 300 ms, 1,499 finished while n8n was down: every one fires once, oldest first, and the backlog drains', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', pageSize: 20 };
		const { service, n8n, backlog } = await afterOutage(shape, 1499);
		// Activated again, its state kept: the first poll and those after it drain the backlog.
		const fired: string[] = ids(await n8n.activate());
		const perPoll: number[] = [fired.length];
		for (let poll = 0; poll < 30 && fired.length < backlog.length; poll++) {
			const now = ids(await n8n.poll());
			perPoll.push(now.length);
			fired.push(...now);
		}
		expect(n8n.pollErrors).toEqual([]);
		expect(fired).toEqual(backlog);
		// eslint-disable-next-line no-console
		console.info(`backlog of 1,499 at 300 ms a page of 20: fired per poll ${perPoll.join(', ')}`);
		service.createDone('after');
		expect((await polls(n8n, 2)).flat()).toEqual(['after']);
	});
});

describe('a clean-up while a backlog is read', () => {
	test.each([
		[3, 1499],
		[11, 1499],
	])(
		'pages of 7 at 300 ms: the %i newest deleted before each of the first 20 polls of a read of %i that finished while n8n was down: every other one fires once (soak seed 50601)',
		async (deleted, size) => {
			const shape: ListShape = { timestamps: 'none', order: 'creation', pageSize: 7 };
			const { service, n8n, backlog } = await afterOutage(shape, size);
			const fired: string[] = ids(await n8n.activate());
			// Above where the read going on stopped, generations are deleted before each poll.
			const gone = new Set<string>();
			for (let poll = 0; poll < 200 && fired.length + gone.size < backlog.length; poll++) {
				const left = backlog.filter((id) => !gone.has(id) && !fired.includes(id));
				if (poll < 20)
					for (const id of left.slice(-deleted)) {
						service.remove(id);
						gone.add(id);
					}
				fired.push(...ids(await n8n.poll()));
			}
			expect(n8n.pollErrors).toEqual([]);
			expect(fired).toEqual(backlog.filter((id) => !gone.has(id)));
		},
		// Slow on a busy machine (a thousand pages each); it waits on nothing real.
		120_000,
	);

	test('pages of 7 at 300 ms, 997 finished while n8n was down; after the first poll 90 % of the newest half is deleted, more than 10 pages above where the read stopped: every other one fires once (soak seed 53102)', async () => {
		const shape: ListShape = { timestamps: 'finish', order: 'update', pageSize: 7 };
		const { service, n8n, backlog } = await afterOutage(shape, 997);
		const fired = ids(await n8n.activate());
		const newestHalf = backlog.slice(-Math.ceil(backlog.length / 2));
		const gone = newestHalf.filter((id, index) => index % 10 !== 0 && !fired.includes(id));
		service.removeMany(gone);
		for (let poll = 0; poll < 40; poll++) fired.push(...ids(await n8n.poll()));
		expect(n8n.pollErrors).toEqual([]);
		expect([...fired].sort()).toEqual(backlog.filter((id) => !gone.includes(id)).sort());
	}, 120_000);
});

describe('an answer with no list while a backlog is read', () => {
	test.each<[string, unknown]>([
		['no content', ''],
		['a message', { message: 'maintenance' }],
		['an empty array', []],
	])(
		'pages of 50 at 300 ms, 1,822 finished while n8n was down; a clean-up of the oldest moves the rest up; the next page read answers %s: every other one fires once (soak seed 51501)',
		async (_name, answer) => {
			const shape: ListShape = { timestamps: 'none', order: 'creation', pageSize: 50 };
			const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 1));
			n8n.deactivate();
			service.pageDelayMs = 300;
			const backlog = service.createDoneMany('b_', 1822);
			const items = (await n8n.activate())?.[0] ?? [];
			// Below the first poll's read and just above where it stopped: what follows moves up.
			const gone = backlog.slice(0, 183).filter((_, index) => index % 3 !== 0);
			service.removeMany(gone);
			service.listAnswers.push([answer === '' ? 204 : 200, answer]);
			for (let poll = 0; poll < 40; poll++) items.push(...((await n8n.poll())?.[0] ?? []));
			expect(n8n.pollErrors).toEqual([]);
			// Those the read had kept and that were deleted come out with their read's 404 (docs/trigger.md).
			const fired = items
				.filter((item) => item.json.error === undefined)
				.map((item) => item.json.id);
			expect(fired).toEqual(backlog.filter((id) => !gone.includes(id)));
		},
		120_000,
	);

	test('a list that grows at its end, pages of 7 at 300 ms, read from its end: 499 finished while n8n was down; the read going on is answered with no list once: every one fires once, oldest first', async () => {
		const shape: ListShape = {
			timestamps: 'finish',
			order: 'creation',
			pageSize: 7,
			oldestFirst: true,
		};
		const { service, n8n, backlog } = await afterOutage(shape, 499);
		const fired = ids(await n8n.activate());
		service.listAnswers.push([200, { message: 'maintenance' }]);
		for (let poll = 0; poll < 40 && fired.length < backlog.length; poll++)
			fired.push(...ids(await n8n.poll()));
		expect(n8n.pollErrors).toEqual([]);
		expect(fired).toEqual(backlog);
	}, 120_000);
});

describe('an empty start', () => {
	test('the list answered empty, then a history of 313 shows at 300 ms a page of 7, then 313 new: the new ones fire once each, the history never', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', pageSize: 7 };
		const { service, n8n } = await started(shape, (s) => {
			s.createDoneMany('old_', 313);
			s.listAnswers.push([200, []]);
		});
		service.pageDelayMs = 300;
		const first = await polls(n8n, 1);
		const arrivals = service.createDoneMany('new_', 313);
		const fired = [...first, ...(await polls(n8n, 12))].flat();
		expect(n8n.pollErrors).toEqual([]);
		expect([...fired].sort()).toEqual([...arrivals].sort());
	});

	test('the list answered empty, then shows a history of 1,009 with one started and 313 finished above it: the started one fires when it finishes', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => {
			s.createDoneMany('old_', 1009);
			s.listAnswers.push([200, []]);
		});
		service.create('started');
		service.createDoneMany('before_', 313);
		expect((await polls(n8n, 1)).flat()).toEqual([]);
		service.finish('started');
		expect((await polls(n8n, 2)).flat()).toEqual(['started']);
	});
});

describe('a paged list sorted by last update', () => {
	test.each<ListShape['timestamps']>(['none', 'finish'])(
		'timestamps %s: 25 finish, then one already fired gets a late update and moves to page 1: all 25 fire once',
		async (timestamps) => {
			const shape: ListShape = { timestamps, order: 'update', pageSize: 20 };
			const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 53));
			service.createDone('fired_before');
			expect((await polls(n8n, 1)).flat()).toEqual(['fired_before']);
			const burst = service.createDoneMany('new_', 25);
			service.touch('fired_before');
			const fired = (await polls(n8n, 3)).flat();
			expect([...fired].sort()).toEqual([...burst].sort());
		},
	);
});

describe('a list that grows at its end (oldest first), its times say so', () => {
	test.each<[string, ListShape]>([
		['unpaged, by creation', { timestamps: 'finish', order: 'creation', oldestFirst: true }],
		[
			'paged 20, by completion',
			{ timestamps: 'finish', order: 'completion', pageSize: 20, oldestFirst: true },
		],
		[
			'paged 7, by update',
			{ timestamps: 'finish', order: 'update', pageSize: 7, oldestFirst: true },
		],
	])(
		'%s: 1,009 old ones never fire; 25 new fire once, oldest first; a touched old one does not',
		async (_name, shape) => {
			const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 1009));
			expect((await polls(n8n, 2)).flat()).toEqual([]);
			const burst = service.createDoneMany('new_', 25);
			service.touch('old_500');
			expect((await polls(n8n, 3)).flat()).toEqual(burst);
			service.createDone('later');
			expect((await polls(n8n, 2)).flat()).toEqual(['later']);
		},
	);
	test('paged by 7, sorted by update: a run again, one new and one touched between two polls, the last page holding only the touched one: the run again and the new one fire (soak seed 50402)', async () => {
		const shape: ListShape = {
			timestamps: 'finish',
			order: 'update',
			pageSize: 7,
			oldestFirst: true,
		};
		const { service, n8n } = await started(shape, (s) => {
			s.createDoneMany('old_', 17);
			for (let index = 0; index < 4; index++) s.create(`running_${index}`);
		});
		// A run again ends more than a minute after its first finish (docs/trigger.md, L5).
		service.advance(2 * 60_000);
		service.rerun('old_0');
		service.finish('old_0', 'done');
		service.createDone('new', 'done');
		service.touch('old_1');
		expect((await polls(n8n, 2)).flat().sort()).toEqual(['new', 'old_0']);
	});
	test('paged by 7, sorted by update: a known one touched above 19 new ones, on a page with 6 of the 7 started after them: the 19 fire (soak seed 51301)', async () => {
		const shape: ListShape = {
			timestamps: 'finish',
			order: 'update',
			pageSize: 7,
			oldestFirst: true,
		};
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 17));
		expect((await polls(n8n, 1)).flat()).toEqual([]);
		// 16 old and 19 new fill five pages; the touched one and six running the sixth, one the last.
		const burst = service.createDoneMany('new_', 19);
		service.touch('old_16');
		for (let index = 0; index < 7; index++) service.create(`running_${index}`);
		expect((await polls(n8n, 2)).flat()).toEqual(burst);
	});
	test('one generation at activation (too few to tell the order), then 263 finish at once, paged by 7 at 300 ms: the read that finds the order is cut by the poll, and every one fires once, oldest first (soak seed 51202)', async () => {
		const shape: ListShape = {
			timestamps: 'finish',
			order: 'update',
			pageSize: 7,
			oldestFirst: true,
		};
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 1));
		service.pageDelayMs = 300;
		const burst = service.createDoneMany('new_', 263);
		const fired: string[] = [];
		for (let poll = 0; poll < 20 && fired.length < burst.length; poll++)
			fired.push(...ids(await n8n.poll()));
		expect(n8n.pollErrors).toEqual([]);
		expect(fired).toEqual(burst);
		expect((await polls(n8n, 2)).flat()).toEqual([]);
	}, 120_000);
});

describe('a clean-up', () => {
	test('9,001 finished; two of every three of the newest 6,000 deleted: nothing old fires; a new one does', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 9001));
		for (let index = 9000; index > 3000; index--)
			if (index % 3 !== 0) service.remove(`old_${index}`);
		expect((await polls(n8n, 3)).flat()).toEqual([]);
		service.createDone('new');
		expect((await polls(n8n, 2)).flat()).toEqual(['new']);
	});

	test.each([7, 20, 53])(
		'pages of %i at 300 ms: 9,001 finished; all the memory holds but the newest 3 deleted: the older ones below, read over several polls, never fire; a new one does (soak seed 52802)',
		async (pageSize) => {
			const shape: ListShape = { timestamps: 'none', order: 'creation', pageSize };
			const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 9001));
			service.pageDelayMs = 300;
			const gone: string[] = [];
			for (let index = 3000; index < 8998; index++) gone.push(`old_${index}`);
			service.removeMany(gone);
			expect((await polls(n8n, 29)).flat()).toEqual([]);
			service.createDone('new');
			expect((await polls(n8n, 5)).flat()).toEqual(['new']);
		},
		120_000,
	);

	test('a list cut to its newest 100: the newest 61 deleted: nothing old fires', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', window: 100 };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 503));
		for (let index = 502; index > 502 - 61; index--) service.remove(`old_${index}`);
		expect((await polls(n8n, 3)).flat()).toEqual([]);
	});

	test('a list cut to its newest 1,009, one running below the cut; a clean-up brings it into view, then it finishes where it was created: it fires (soak seed 50302)', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation', window: 1009 };
		const { service, n8n } = await started(shape, (s) => {
			s.create('running');
			s.createDoneMany('old_', 1009);
		});
		for (let index = 1008; index > 1008 - 11; index--) service.remove(`old_${index}`);
		expect((await polls(n8n, 2)).flat()).toEqual([]);
		service.finish('running', 'done');
		expect((await polls(n8n, 2)).flat()).toEqual(['running']);
	});

	test('pages of 20 sorted by update: 12,011 finish at once and fire in a poll whose read stops at the 43 it knew; the newest 6,007 deleted: nothing fires again (soak seed 51502)', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'update', pageSize: 20 };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 43));
		const burst = service.createDoneMany('new_', 12011);
		const fired: string[] = [];
		for (let poll = 0; poll < 80 && fired.length < burst.length; poll++)
			fired.push(...ids(await n8n.poll()));
		expect(fired).toEqual(burst);
		service.removeMany(burst.slice(-6007));
		expect((await polls(n8n, 3)).flat()).toEqual([]);
		service.createDone('after');
		expect((await polls(n8n, 2)).flat()).toEqual(['after']);
	}, 120_000);

	test('every generation the trigger remembers deleted (a full list): nothing old fires, and the log says why', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		const shape: ListShape = { timestamps: 'none', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 6007));
		for (let index = 0; index < 6007; index++) if (index >= 7) service.remove(`old_${index}`);
		expect((await polls(n8n, 2)).flat()).toEqual([]);
		expect(warn.mock.calls.map(([message]) => String(message)).join('\n')).toMatch(
			/shows none of those the trigger remembers/,
		);
		warn.mockRestore();
	});
});

describe('the account is the service account', () => {
	test.each<[string, ListShape]>([
		['unpaged', { timestamps: 'none', order: 'creation' }],
		[
			'paged by 97, running ones listed last (soak seed 52702)',
			{ timestamps: 'none', order: 'creation', pageSize: 97, pendingAt: 'bottom' },
		],
	])(
		"another account's key, whose list (%s) holds 6,113 finished and one still running (past the 6,000 a starting point keeps): that one fires when it finishes",
		async (_name, shape) => {
			const { n8n } = await started({ timestamps: 'none', order: 'creation' }, (s) =>
				s.createDoneMany('mine_', 17),
			);
			nock.cleanAll();
			servePing();
			pingAnswer.organization = 'org_2';
			const other = new GenerationService(shape);
			other.serve();
			other.create('running');
			other.createDoneMany('theirs_', 6113);
			expect((await polls(n8n, 1)).flat()).toEqual([]);
			other.finish('running');
			expect((await polls(n8n, 2)).flat()).toEqual(['running']);
		},
	);

	test("another account's key pasted into the same credential: none of its 211 old generations fire", async () => {
		const { service, n8n } = await started({ timestamps: 'none', order: 'creation' }, (s) =>
			s.createDoneMany('mine_', 17),
		);
		nock.cleanAll();
		servePing();
		pingAnswer.organization = { id: 'org_2', name: 'Another' };
		const other = new GenerationService({ timestamps: 'none', order: 'creation' });
		other.serve();
		other.createDoneMany('theirs_', 211);
		expect((await polls(n8n, 3)).flat()).toEqual([]);
		other.createDone('theirs_new');
		expect((await polls(n8n, 1)).flat()).toEqual(['theirs_new']);
		expect(service.size).toBe(17);
	});

	test('a revoked key (two polls fail with 401), then a new credential of the same account: what finished meanwhile fires', async () => {
		const { service, n8n } = await started({ timestamps: 'none', order: 'creation' }, (s) =>
			s.createDoneMany('old_', 23),
		);
		service.listFailStatus = 401;
		service.listFailures = 2;
		service.createDone('during_1');
		await polls(n8n, 2);
		expect(n8n.pollErrors.map((error) => error.message)).toEqual([
			expect.stringMatching(/reconnect|rejected|401/i),
			expect.stringMatching(/reconnect|rejected|401/i),
		]);
		service.createDone('during_2');
		// The workflow saved with another credential: n8n activates it again.
		n8n.credentialId = 'new-credential';
		n8n.deactivate();
		const fired = ids(await n8n.activate());
		expect([...fired, ...(await polls(n8n, 2)).flat()]).toEqual(['during_1', 'during_2']);
	});
});

describe('finish times, failures, runs again', () => {
	test('a list cut to its newest 53, sorted by completion: two finish times in 2099 and 51 more: every one fires', async () => {
		const shape: ListShape = { timestamps: 'finish', order: 'completion', window: 53 };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 3));
		service.createDone('first');
		expect((await polls(n8n, 1)).flat()).toEqual(['first']);
		service.createDone('bad_clock_1');
		service.skewFinish('bad_clock_1', Date.UTC(2099, 0, 1));
		expect((await polls(n8n, 1)).flat()).toEqual(['bad_clock_1']);
		service.createDone('bad_clock_2');
		service.skewFinish('bad_clock_2', Date.UTC(2099, 0, 1));
		const more = service.createDoneMany('new_', 51);
		const fired = (await polls(n8n, 3)).flat();
		expect([...fired].sort()).toEqual(['bad_clock_2', ...more].sort());
	});

	test('a poll whose answer holds no list reads a running generation by id: a run again that finished just before it still fires', async () => {
		const shape: ListShape = { timestamps: 'finish', order: 'completion' };
		const { service, n8n } = await started(shape, (s) => {
			s.createDone('old');
			s.create('running');
		});
		// A run again ends more than a minute after its first finish (docs/trigger.md, L5).
		service.advance(2 * 60_000);
		service.rerun('old');
		service.finish('old');
		service.finish('running');
		service.listAnswers.push([204, '']);
		const fired = (await polls(n8n, 3)).flat();
		expect([...fired].sort()).toEqual(['old', 'running']);
	});

	test('a poll whose answer holds no list emits 167 decided earlier and 4 read by id: the 4, listed at the next read with finish times after all it showed, do not fire again (soak seed 52801)', () => {
		const now = clockNow();
		const at = (ms: number) => new Date(now - ms).toISOString();
		const old = Array.from({ length: 13 }, (_, i) => ({
			id: `old_${i}`,
			status: 'done',
			finishedAt: at(60_000 + i),
		}));
		const start = baseline({ entries: old, length: 13 }, now);
		const earlier = Array.from({ length: 167 }, (_, i) => keyOf(`due_${i}`, 'done'));
		const byId = ['r_0', 'r_1', 'r_2', 'r_3'];
		const next = settle(
			start,
			{ listed: [], pending: [], finishedUpToMs: start.finishedUpToMs },
			{
				fired: [...earlier, ...byId.map((id) => keyOf(id, 'done'))],
				due: [],
				resolvedPending: byId,
				readById: new Set(byId),
			},
		);
		const listed = [...byId.map((id) => ({ id, status: 'done', finishedAt: at(1000) })), ...old];
		expect(plan(next, { entries: listed, length: 17, reachedEnd: true }, now).finished).toEqual([]);
	});

	test('one finish time far ahead (2099): ignored; the generations after it still fire', async () => {
		const shape: ListShape = { timestamps: 'finish', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 31));
		service.createDone('bad_clock');
		service.skewFinish('bad_clock', Date.UTC(2099, 0, 1));
		expect((await polls(n8n, 1)).flat()).toEqual(['bad_clock']);
		service.createDone('next_1');
		expect((await polls(n8n, 1)).flat()).toEqual(['next_1']);
		service.createDone('next_2');
		expect((await polls(n8n, 1)).flat()).toEqual(['next_2']);
	});

	test('61 new while the file host is down for one poll: all come out at the next poll, with their files, none with an error', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 13), {
			events: ['done'],
			downloadOutputs: true,
		});
		const burst = service.createDoneMany('new_', 61);
		for (const id of burst) service.missingFiles.add(id);
		const first = await n8n.poll();
		expect(ids(first)).toEqual([]);
		service.missingFiles.clear();
		const second = await n8n.poll();
		expect(ids(second)).toEqual(burst);
		expect((second?.[0] ?? []).filter((item) => item.json.error !== undefined)).toEqual([]);
		expect((second?.[0] ?? []).every((item) => item.binary?.output_0 !== undefined)).toBe(true);
	});

	test('a failed generation run again under its id and done between two polls fires done (no finish times)', async () => {
		const shape: ListShape = { timestamps: 'none', order: 'creation' };
		const { service, n8n } = await started(shape, (s) => s.createDoneMany('old_', 11), {
			events: ['done', 'failed'],
		});
		service.createDone('flaky', 'failed');
		expect((await polls(n8n, 1)).flat()).toEqual(['flaky']);
		service.rerun('flaky');
		service.finish('flaky', 'done');
		const fired = await n8n.poll();
		expect(ids(fired)).toEqual(['flaky']);
		expect(fired?.[0][0].json.status).toBe('done');
		expect((await polls(n8n, 2)).flat()).toEqual([]);
	});
});

describe('post outcomes told apart by what the record shows', () => {
	test('a post queued again that fails again at a new date fires again; one only moved to an old date does not', async () => {
		const posts = new PostService('spec');
		posts.serve();
		posts.schedule('p_fail', { dateMs: clockNow() + 60_000 });
		posts.schedule('p_moved', { dateMs: clockNow() + 60_000 });
		const n8n = new SimulatedN8n(
			'classic',
			{ events: ['postFailed', 'postPublished'] },
			apiKeyCredentials,
		);
		expect(await n8n.activate()).toBeNull();
		posts.send('p_fail', 'failed');
		posts.send('p_moved', 'failed');
		expect([...(await polls(n8n, 1)).flat()].sort()).toEqual(['p_fail', 'p_moved']);
		// Between two polls: queued again ten minutes on, and failed again there.
		posts.requeue('p_fail', clockNow() + 600_000);
		posts.send('p_fail', 'failed');
		posts.move('p_moved', clockNow() - 3 * 86_400_000);
		expect((await polls(n8n, 1)).flat()).toEqual(['p_fail']);
		expect((await polls(n8n, 2)).flat()).toEqual([]);
	});
});
