/**
 * Seeded random histories of a busy account (issue 67): the service world
 * (test/helpers/serviceWorld.cts) makes random mixes of what a service does — orders, paging,
 * latency, cut lists, clock skew, a slow worker, bulk edits, retention, re-runs, 429s, a failing
 * page, another account's key — while n8n polls in one of its engines, stops, restarts and is
 * switched off and on. The world oracle (test/helpers/worldOracle.cts) judges each history from
 * the world alone. Knobs: TRIGGER_WORLD_SEED (a number, or `random`), TRIGGER_WORLD_RUNS; a soak:
 * `npm run soak:world`.
 */
import nock from 'nock';

import { described, drawHistory, runHistory } from '../helpers/worldHistories.cjs';
import { LIMITS, type Verdict } from '../helpers/worldOracle.cjs';

const RUNS = Number(process.env.TRIGGER_WORLD_RUNS ?? 13);
const GIVEN_SEED = process.env.TRIGGER_WORLD_SEED;
const SEED =
	GIVEN_SEED === undefined
		? 6701
		: GIVEN_SEED === 'random'
			? Math.floor(Math.random() * 1e9)
			: Number(GIVEN_SEED);

const histories = Array.from({ length: RUNS }, (_, i) => drawHistory(SEED + i));
const results: Array<{ seed: number; verdict: Verdict }> = [];

beforeEach(() => {
	nock.cleanAll();
});

afterAll(() => {
	const owed = results.reduce((sum, { verdict }) => sum + verdict.owed, 0);
	const exempt = results.reduce(
		(sum, { verdict }) => sum + LIMITS.reduce((n, limit) => n + verdict.exempt[limit].length, 0),
		0,
	);
	const violating = results.filter(({ verdict }) => !verdict.clean);
	// eslint-disable-next-line no-console
	console.info(
		`trigger world model, seed ${SEED}, ${results.length} histories: ${violating.length} with violations` +
			(violating.length ? ` (seeds ${violating.map(({ seed }) => seed).join(', ')})` : '') +
			`; exempt ${owed ? ((100 * exempt) / owed).toFixed(1) : 0} % of ${owed} owed`,
	);
});

describe(`the generation trigger keeps its promise over ${RUNS} random histories of the world (seed ${SEED})`, () => {
	test.each(histories.map((history) => [history.seed, history] as const))(
		'history %i',
		async (_seed, history) => {
			const zone = process.env.TZ;
			if (history.zone) process.env.TZ = history.zone;
			try {
				const verdict = await runHistory(history);
				results.push({ seed: history.seed, verdict });
				expect(verdict.clean ? 'clean' : `${described(history)}: ${verdict.summary}`).toBe('clean');
			} finally {
				if (zone === undefined) delete process.env.TZ;
				else process.env.TZ = zone;
			}
		},
		120_000,
	);
});
