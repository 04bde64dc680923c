/**
 * The trigger's post events over random histories of a busy posting account (see
 * test/helpers/postModel.cts): posts scheduled, sent, sent at once, queued again and failing again
 * at a new date, retried and published, moved, edited and deleted, several between two polls; list
 * reads failing, outages, restarts, activations again and another account's key; each engine and
 * each plausible answer. A fixed seed here; `npm run soak:posts` plays many thousands of cases.
 */
import { writeFileSync } from 'node:fs';

import fc from 'fast-check';

import { codeFingerprint } from '../helpers/fingerprint.cjs';

import {
	BUSY_POSTING,
	describePostVerdict,
	keepsPostPromise,
	postScenarioArb,
	runPostScenario,
} from '../helpers/postModel.cjs';

const RUNS = Number(process.env.POST_MODEL_RUNS ?? 60);
const GIVEN_SEED = process.env.POST_MODEL_SEED;
const SEED = GIVEN_SEED === 'random' ? Date.now() % 2 ** 31 : GIVEN_SEED ? Number(GIVEN_SEED) : 49;
/** A file the soak writes its totals to every 25 cases. */
const PROGRESS = process.env.POST_MODEL_PROGRESS;
const PATH = process.env.POST_MODEL_PATH;

test(
	`the post events keep their promise over ${RUNS} random histories (seed ${SEED})`,
	async () => {
		const totals = { cases: 0, polls: 0, fired: 0, due: 0, exempt: 0 };
		const code = PROGRESS ? codeFingerprint() : '';
		await fc.assert(
			fc.asyncProperty(postScenarioArb, async (scenario) => {
				const verdict = await runPostScenario(scenario);
				totals.cases++;
				// A long soak writes its totals as it goes (a run stopped early still says how far it got).
				if (PROGRESS && totals.cases % 25 === 0)
					writeFileSync(PROGRESS, JSON.stringify({ seed: SEED, code, ...totals }));
				totals.polls += verdict.polls;
				totals.fired += verdict.fired;
				totals.due += verdict.due;
				totals.exempt += verdict.exempt;
				if (!keepsPostPromise(verdict)) throw new Error(describePostVerdict(verdict));
			}),
			{
				numRuns: RUNS,
				seed: SEED,
				path: PATH,
				endOnFailure: false,
				verbose: 1,
				examples: BUSY_POSTING.map((scenario) => [scenario] as [typeof scenario]),
			},
		);
		// eslint-disable-next-line no-console
		console.info(
			`post model: ${totals.cases} cases (shrinking included), ${totals.polls} polls, ${totals.fired} outcomes fired, 0 violations; ${totals.due} outcomes due, ${totals.exempt} exempt (${Math.round((100 * totals.exempt) / Math.max(1, totals.due + totals.exempt))} %: replaced or deleted before any read showed them, or before a starting point taken again)`,
		);
	},
	Math.max(600_000, RUNS * 10_000),
);
