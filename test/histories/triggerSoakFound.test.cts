/**
 * The world soaks' histories that broke the promise, each replayed from its seed (the world model:
 * test/helpers/worldHistories.cts, judged by test/helpers/worldOracle.cts). `npm test` plays them;
 * `npm run test:unit` does not (several seconds each).
 */
import nock from 'nock';

import { described, drawHistory, runHistory } from '../helpers/worldHistories.cjs';

beforeEach(() => {
	nock.cleanAll();
});

/**
 * Histories the soaks found, each fixed (docs/soak-log.md): played first, whatever the seed.
 * 80019: an item matched to an earlier finish it did not show (the oracle). 80034, 80049, 80095,
 * 80115, 80129, 80134: a finish below a stop in a list not sorted by finish (rule
 * `whole-read-every`). 100718, 200856: the right account's key back on a poll that then failed lost
 * its state (parked as the poll began).
 */
const FOUND = [80019, 80034, 80049, 80095, 80115, 80129, 80134, 100718, 200856];

describe('the generation trigger keeps its promise over the histories the soaks found', () => {
	test.each(FOUND)(
		'history %i',
		async (seed) => {
			const history = drawHistory(seed);
			const zone = process.env.TZ;
			if (history.zone) process.env.TZ = history.zone;
			try {
				const verdict = await runHistory(history);
				expect(verdict.clean ? 'clean' : `${described(history)}: ${verdict.summary}`).toBe('clean');
			} finally {
				if (zone === undefined) delete process.env.TZ;
				else process.env.TZ = zone;
			}
		},
		120_000,
	);
});
