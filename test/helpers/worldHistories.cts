/**
 * Seeded random histories of a busy account over the service world (issue 67): random mixes of
 * what a service does — orders, paging, latency, cut lists, clock skew, a slow worker, bulk edits,
 * retention, re-runs, 429s, a failing page, another account's key — while n8n polls, stops,
 * restarts and is switched off and on. Each is judged by the world oracle. Used by
 * test/unit/triggerWorld.test.cts (the trigger in n8n's engines) and
 * test/unit/worldOracle.test.cts (an honest fake trigger: the oracle finds nothing to blame).
 */
import { ENGINES } from './pollEngines.cjs';
import {
	DAY,
	enginePoller,
	HOUR,
	MINUTE,
	Schedule,
	ServiceWorld,
	type FinalStatus,
	type Order,
	type Paging,
	type Poller,
	type WorldShape,
} from './serviceWorld.cjs';
import { currentClock } from './clock.cjs';
import { judge, type Verdict } from './worldOracle.cjs';

/** The time the trigger gives its reading in a poll (docs/trigger.md: at most 20 s). */
export const READ_BUDGET_MS = 20_000;

/** mulberry32: a small seeded generator. */
export function random(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
	const pick = <T,>(values: readonly T[]): T => values[int(0, values.length - 1)];
	const chance = (p: number) => next() < p;
	return { next, int, pick, chance };
}
type Random = ReturnType<typeof random>;

export interface History {
	seed: number;
	engine: (typeof ENGINES)[number];
	shape: WorldShape;
	events: FinalStatus[];
	skewMs: number;
	zone?: string;
	old: number;
	steps: number;
}

export function drawHistory(seed: number): History {
	const r = random(seed);
	const paging: Paging = r.pick(['unpaged', 'pages', 'pages', 'hasMore', 'cursor'] as const);
	const order: Order = r.pick(['creation', 'finish', 'update', 'oldestFirst', 'none'] as const);
	const naiveTimes = r.chance(0.15);
	return {
		seed,
		engine: r.pick(ENGINES),
		shape: {
			order,
			paging,
			pageSize: r.pick([7, 10, 20, 50, 97]),
			pageLatencyMs: r.pick([0, 0, 300, 786]),
			newestN: r.chance(0.15) ? r.pick([53, 101, 211]) : undefined,
			naiveTimes,
		},
		events: r.chance(0.4) ? ['done', 'failed'] : ['done'],
		skewMs: r.pick([0, 0, 0, -20 * MINUTE, -3 * MINUTE, 4 * MINUTE, 20 * MINUTE]),
		zone: naiveTimes ? r.pick(['Asia/Tokyo', 'Europe/Berlin', 'America/New_York']) : undefined,
		old: r.int(0, 230),
		steps: r.int(8, 18),
	};
}

/** What makes the limits' cases: deletions of the newest (also mid-read), the same outcome twice, a worker far behind. */
function rareStep(
	r: Random,
	world: ServiceWorld,
	state: { finished: string[] },
	fresh: () => string,
): void {
	const roll = r.next();
	const newest = (count: number) =>
		world
			.present()
			.sort((a, b) => b.createdSeq - a.createdSeq)
			.slice(0, count)
			.map((generation) => generation.id);
	if (roll < 0.3) world.delete(newest(r.int(1, 5)));
	else if (roll < 0.55) {
		// During the next poll's read, between two pages when pages take time.
		const count = r.int(1, 8);
		void currentClock()
			.wait(r.int(200, 3000))
			.then(() => world.delete(newest(count)));
	} else if (roll < 0.8 && state.finished.length) {
		const id = r.pick(state.finished);
		const generation = world.get(id);
		const last = generation.outcomes[generation.outcomes.length - 1];
		if (generation.deletedSeq !== undefined || generation.status === 'queued' || !last) return;
		world.rerun(id);
		world.finish(id, last.status, { finishedMs: last.finishedMs });
	} else state.finished.push(world.createDone(fresh(), 'done', -15 * MINUTE).id);
}

/** One random step of the account and of n8n; each step ends with a poll while active. */
async function step(
	r: Random,
	world: ServiceWorld,
	schedule: Schedule,
	state: { n: number; pending: string[]; finished: string[]; other: string },
): Promise<void> {
	const fresh = () => `g${state.n++}`;
	world.failingPages.clear();
	state.pending = state.pending.filter((id) => world.get(id).deletedSeq === undefined);
	const roll = r.next();
	if (roll < 0.3) {
		const status: FinalStatus = r.chance(0.2) ? 'failed' : 'done';
		const workerSkewMs = r.chance(0.15) ? r.pick([-2 * MINUTE, -4 * MINUTE]) : 0;
		for (let i = r.int(1, r.chance(0.2) ? 120 : 12); i > 0; i--)
			state.finished.push(world.createDone(fresh(), status, workerSkewMs).id);
	} else if (roll < 0.4) {
		for (let i = r.int(1, 5); i > 0; i--) state.pending.push(world.create(fresh()).id);
	} else if (roll < 0.5 && state.pending.length) {
		const id = state.pending.splice(r.int(0, state.pending.length - 1), 1)[0];
		if (world.get(id).status === 'queued' && r.chance(0.5)) world.start(id);
		else {
			world.finish(id, r.chance(0.3) ? 'failed' : 'done');
			state.finished.push(id);
		}
		if (world.get(id).status === 'running') state.pending.push(id);
	} else if (roll < 0.57) {
		const present = world.present().map((g) => g.id);
		world.touch(present.filter(() => r.chance(0.3)));
	} else if (roll < 0.63) {
		world.deleteOldest(r.int(1, 60));
	} else if (roll < 0.7 && state.finished.length) {
		const id = r.pick(state.finished);
		const generation = world.get(id);
		if (generation.deletedSeq === undefined && generation.status !== 'queued') {
			world.rerun(id);
			state.pending.push(id);
		}
	} else if (roll < 0.75) {
		world.failRequests.set(world.listRequests + r.int(1, 4), r.pick([1, 2, 30]));
	} else if (roll < 0.78) {
		world.failingPages.add(r.int(2, 4));
	} else if (roll < 0.82) {
		world.rateLimit = r.chance(0.5) ? { perMinute: r.pick([7, 20]) } : undefined;
	} else if (roll < 0.85) {
		world.useAccount(state.other);
		await schedule.polls(r.int(1, 2));
		world.useAccount(world.homeAccount);
	} else if (roll < 0.9 && schedule.active) {
		schedule.deactivate();
		await world.advance(r.pick([10 * MINUTE, 2 * HOUR, 4 * DAY]));
		for (let i = r.int(0, 40); i > 0; i--) state.finished.push(world.createDone(fresh()).id);
		await world.advance();
		await schedule.activate();
	} else if (roll < 0.92 && schedule.active) {
		await schedule.restart();
	} else rareStep(r, world, state, fresh);
	await world.advance();
	if (!schedule.active) await schedule.activate();
	else await schedule.poll();
}

/** Runs one history with this poller over its world; the oracle's verdict. */
export async function runHistory(
	history: History,
	pollerFor: (world: ServiceWorld, history: History) => Poller = (_world, h) =>
		enginePoller(h.engine, { events: h.events }),
): Promise<Verdict> {
	const r = random(history.seed ^ 0x5bd1e995);
	const world = new ServiceWorld(history.shape);
	world.serviceSkewMs = history.skewMs;
	world.serve();
	const schedule = new Schedule(world, pollerFor(world, history));
	const state = {
		n: 0,
		pending: [] as string[],
		finished: [] as string[],
		other: `${world.homeAccount}_other`,
	};
	for (let i = 0; i < history.old; i++)
		world.createDone(`old${i}`, r.chance(0.1) ? 'failed' : 'done');
	for (let i = r.int(0, 3); i > 0; i--) state.pending.push(world.create(`old_p${i}`).id);
	for (let i = r.int(0, 30); i > 0; i--) {
		world.create(`other${i}`, state.other);
		world.finish(`other${i}`);
	}
	await world.advance();
	await schedule.activate();
	for (let i = 0; i < history.steps; i++) await step(r, world, schedule, state);
	// A few finish at the end, so every history owes something.
	for (let i = r.int(1, 9); i > 0; i--) world.createDone(`last${i}`);
	// Drain: no failures, the right account, long enough for a whole read twice and a bit, and for
	// the promised whole read.
	world.failRequests.clear();
	world.failingPages.clear();
	world.rateLimit = undefined;
	world.useAccount(world.homeAccount);
	if (!schedule.active) await schedule.activate();
	const pages = Math.ceil(world.present().length / (history.shape.pageSize ?? 20));
	const wholeRead = Math.ceil((pages * (history.shape.pageLatencyMs ?? 0)) / READ_BUDGET_MS);
	// A finish deep in a list the trigger reads down to a stop fires by its next whole read, at
	// least every 5th (docs/trigger.md, "The promise"): 5 more polls.
	await schedule.polls(2 * wholeRead + 3 + 5);
	return judge(world, { events: history.events });
}

export function described(history: History): string {
	const zone = history.zone ? `, read in ${history.zone}` : '';
	return `${history.engine}, ${JSON.stringify(history.shape)}, service clock ${history.skewMs / MINUTE} min off${zone}, ${history.old} old, ${history.steps} steps, events ${history.events.join('+')}`;
}
