/**
 * Issue 67's backlog rows: how many polls until the last of a backlog fires. The real trigger in
 * n8n's classic poll engine (test/helpers/pollEngines.cts, n8n's default) over a scripted service
 * (test/helpers/serviceWorld.cts) on a clock that skips waits, polls a minute apart, as
 * test/histories/triggerRows.test.cts drives it at a smaller size. The goal: one whole read of the
 * list (its pages × each page's time / the poll's read budget, the trigger's
 * POLL_TIME_BUDGET_MS), rounded up, + 2 polls. Each row is the median of three runs (a run's
 * count can move with the real time its work takes, which the clock adds).
 */
import type { FiredItem, Schedule, ServiceWorld } from '../../test/helpers/serviceWorld.cjs';
import { POLL_TIME_BUDGET_MS } from '../../nodes/SocialContentTrigger/pollStore';
import { median, round, rows, type Suite } from '../harness.cjs';

// Loaded when the suite runs, not with the bench: nock, once loaded, sees every request of the
// process (the other suites' too).
/* eslint-disable @typescript-eslint/no-require-imports */
const serviceWorld = () => ({
	...(require('../../test/helpers/serviceWorld.cjs') as typeof import('../../test/helpers/serviceWorld.cjs')),
	nock: require('nock') as typeof import('nock'),
});
const clock = () =>
	require('../../test/helpers/clock.cjs') as typeof import('../../test/helpers/clock.cjs');
/* eslint-enable @typescript-eslint/no-require-imports */

const RUNS = Number(process.env.BENCH_BACKLOG_RUNS ?? 3);

interface Backlog {
	/** How many finish at once. */
	count: number;
	/** Finished before them, known to the trigger. */
	older: number;
	pageSize: number;
	pageLatencyMs: number;
	/** They finish while the workflow is off (else between two polls of an active one). */
	whileOff: boolean;
}

/** Issue 67's acceptance; the last gives no page time: the row before's. */
const BACKLOGS: Backlog[] = [
	{ count: 2928, older: 2600, pageSize: 10, pageLatencyMs: 786, whileOff: true },
	{ count: 532, older: 2600, pageSize: 10, pageLatencyMs: 786, whileOff: false },
	{ count: 7000, older: 2600, pageSize: 20, pageLatencyMs: 300, whileOff: true },
	{ count: 10_000, older: 2600, pageSize: 50, pageLatencyMs: 300, whileOff: true },
];

/** Polls one whole read of `entries` takes: its pages' time over the poll's read budget. */
function wholeReadPolls(entries: number, backlog: Backlog): number {
	const pages = Math.ceil(entries / backlog.pageSize);
	return Math.ceil((pages * backlog.pageLatencyMs) / POLL_TIME_BUDGET_MS);
}

/** The goal: one whole read of the list, + 2 polls. */
const goalOf = (backlog: Backlog) => wholeReadPolls(backlog.older + backlog.count, backlog) + 2;

/** A run that has not seen the last fire by then stops: the row says how many fired. */
const maxPolls = (backlog: Backlog) => 4 * goalOf(backlog) + 20;

/** One run: the polls until the last of the backlog fired (counted from the first that could), and whether each fired once. */
async function backlogRun(
	backlog: Backlog,
): Promise<{ polls: number; fired: number; once: boolean }> {
	const { enginePoller, HOUR, nock, Schedule, ServiceWorld } = serviceWorld();
	nock.cleanAll(); // the last world's answers
	const world: ServiceWorld = new ServiceWorld({
		order: 'creation',
		paging: 'pages',
		pageSize: backlog.pageSize,
		pageLatencyMs: backlog.pageLatencyMs,
	});
	world.serve();
	const schedule: Schedule = new Schedule(world, enginePoller('classic', { events: ['done'] }));
	await world.createDoneMany('old_', backlog.older);
	await schedule.activate();
	// Until the activation's read of the older ones is over.
	await schedule.polls(wholeReadPolls(backlog.older, backlog) + 1);
	if (backlog.whileOff) {
		schedule.deactivate();
		await world.advance(HOUR);
	}
	const ids = new Set(await world.createDoneMany('b_', backlog.count));
	const firstPoll = world.polls.length;
	if (backlog.whileOff) await schedule.activate();
	const firedOnce = () => new Set(ofBacklog(world.items, ids).map((item) => item.id)).size;
	// The activation poll (after an outage) is the first counted.
	const scheduled = maxPolls(backlog) - (backlog.whileOff ? 1 : 0);
	await schedule.pollUntil(() => firedOnce() >= ids.size, scheduled);
	const fired = ofBacklog(world.items, ids);
	const all = firedOnce() === ids.size;
	return {
		// Not all fired: the polls that ran, and the row is not met.
		polls: all
			? Math.max(...fired.map((item) => item.pollIndex)) - firstPoll + 1
			: world.polls.length - firstPoll,
		fired: firedOnce(),
		once: all && fired.length === ids.size,
	};
}

const ofBacklog = (items: FiredItem[], ids: Set<string>) =>
	items.filter((item) => ids.has(item.id));

/** A backlog's row: the median of its runs against one whole read + 2. */
async function backlogRow(backlog: Backlog): Promise<void> {
	const runs = [];
	for (let run = 0; run < RUNS; run++) runs.push(await backlogRun(backlog));
	const polls = median(runs.map((run) => run.polls));
	const entries = backlog.older + backlog.count;
	const pages = Math.ceil(entries / backlog.pageSize);
	const goal = goalOf(backlog);
	const allOnce = runs.every((run) => run.once);
	const fired = runs.every((run) => run.fired === backlog.count)
		? 'all fired'
		: `fired: ${runs.map((run) => run.fired).join(', ')} of ${backlog.count}; a run stops after ${maxPolls(backlog)} polls`;
	const when = backlog.whileOff ? 'finish while the workflow is off' : 'finish between two polls';
	rows.push({
		name: `trigger backlog, ${backlog.count.toLocaleString('en-US')} ${when}, over ${backlog.older.toLocaleString('en-US')} older, pages of ${backlog.pageSize} at ${backlog.pageLatencyMs} ms, n8n's classic engine: polls until the last fires (median of ${RUNS}; runs: ${runs.map((run) => run.polls).join(', ')}; ${fired}, each once: ${allOnce})`,
		value: polls,
		unit: 'polls',
		baseline: goal,
		ratio: round(polls / goal, 3),
		goal: `≤ one whole read + 2 = ${goal} (${pages} pages × ${backlog.pageLatencyMs} ms / ${POLL_TIME_BUDGET_MS / 1000} s a poll, rounded up, + 2), each fired once`,
		met: polls <= goal && allOnce,
	});
}

async function triggerBacklog(): Promise<void> {
	const { SkippingClock, useClock } = clock();
	// nock (the service world's) is loaded by this suite only, and switched off after it.
	const nock = serviceWorld().nock;
	useClock(new SkippingClock());
	nock.disableNetConnect(); // the world answers everything; nothing leaves the machine
	try {
		for (const backlog of BACKLOGS) await backlogRow(backlog);
	} finally {
		nock.cleanAll();
		nock.enableNetConnect();
		nock.restore();
		useClock();
	}
}

export const suites: Suite[] = [
	{ name: 'triggerBacklog', run: triggerBacklog, owns: /^trigger backlog/ },
];
