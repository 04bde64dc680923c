#!/usr/bin/env node
// Deliberate mutants of the trigger: each is applied to the source in turn, the seeded model-based
// test of its family (the run `npm test` makes) is played against it, and the source is restored.
// Every mutant must be caught (the test fails). `npm run mutants:trigger [name ...]`.
'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const TRIGGER = 'nodes/SocialContentTrigger';
const GENERATION_MODEL = 'test/histories/triggerModel.test.cts';
const POST_MODEL = 'test/histories/triggerPostModel.test.cts';
/** Lists with finish times (#67): the rows and the world model, which never read the trigger. */
const WORLD = ['test/histories/triggerRows.test.cts', 'test/unit/triggerWorld.test.cts'];

/** name: what it brings back; file, and the text replaced in it; the model test that must catch it. */
const MUTANTS = [
	// The rules of the reading on finish times (docs/trigger.md, "Rules"), one mutant each.
	{
		name: 'above-floor-fires',
		why: 'a finish above the floor fires whether or not it is known',
		file: `${TRIGGER}/finishTimes.ts`,
		from: 'return !known.matches(finishKey(entry), finishedMs);',
		to: 'return known.size >= 0;',
		test: WORLD,
	},
	{
		name: 'floor-from-read-start',
		why: 'a whole read moves the floor to the latest finish it showed by its end, not as it began',
		file: `${TRIGGER}/pollTimes.ts`,
		from: 'const basisMs = this.basisMs ?? readBasis(this.serviceDateMs(), this.latestMs);',
		to: 'const basisMs = this.latestMs[0] ?? null;',
		test: WORLD,
	},
	{
		name: 'order-by-times',
		why: 'one step down is taken for a list sorted newest first',
		file: `${TRIGGER}/finishTimes.ts`,
		from: 'if (this.keepsDown && this.down >= 2 * this.up && this.down > 0) return',
		to: 'if (this.down > 0) return',
		test: WORLD,
	},
	{
		name: 'below-floor-stops',
		why: 'a read stops at the first entry below the floor plus OVERLAP',
		file: `${TRIGGER}/finishTimes.ts`,
		from: 'time < state.floorMs - OVERLAP_MS',
		to: 'time < state.floorMs + OVERLAP_MS',
		test: WORLD,
	},
	{
		name: 'resume-after-last-read',
		why: 'a read going on starts again from the top of the list',
		file: `${TRIGGER}/pollTimes.ts`,
		from: 'const read: ReadPosition = state.read ?? freshRead(state);',
		to: 'const read: ReadPosition = state.read ? { ...state.read, page: 1, anchors: [] } : freshRead(state);',
		test: WORLD,
	},
	{
		name: 'starting-point-on-service-clock',
		why: 'the starting point takes what it reads as old whenever it finished',
		file: `${TRIGGER}/pollTimes.ts`,
		from: 'return finishedMs > this.recordUpToMs && finishedMs <= nowMs + OVERLAP_MS;',
		to: 'return finishedMs > Infinity && finishedMs <= nowMs;',
		test: [...WORLD, 'test/histories/triggerPromise.test.cts'],
	},
	{
		name: 'known-bounded',
		why: 'known finishes give way without raising the floor',
		file: `${TRIGGER}/finishTimes.ts`,
		from: 'return Math.max(floorMs ?? -Infinity, newestFirst[max][1]);',
		to: 'return floorMs;',
		test: WORLD,
	},
	{
		name: 'pending-fires',
		why: 'one seen queued or running fires only by its finish time',
		file: `${TRIGGER}/pollTimes.ts`,
		from: '(wasPending && !this.known.matches(key, finishedMs, 0))',
		to: '(wasPending && !wasPending)',
		test: [...WORLD, 'test/histories/triggerPromise.test.cts'],
	},
	{
		name: 'finish-rewritten',
		why: 'a finish time written again a little apart fires again',
		file: `${TRIGGER}/finishTimes.ts`,
		from: 'export const SAME_FINISH_MS = 60_000;',
		to: 'export const SAME_FINISH_MS = -1_000;',
		test: 'test/histories/triggerAdversary.test.cts',
	},
	{
		name: 'one-state-per-account',
		why: "the right account's key back is a new starting point",
		file: `${TRIGGER}/pollStore.ts`,
		from: '\t\tstate = mine;',
		to: '\t\tstate = mine && undefined;',
		test: WORLD,
	},
	{
		name: 'whole-read-every',
		why: 'a read that stops early moves the floor too (as a whole read does)',
		file: `${TRIGGER}/pollTimes.ts`,
		from: 'const moved = whole || this.state.recording ? floorAfter(this.state.floorMs, basisMs) : null;',
		to: 'const moved = whole || true ? floorAfter(this.state.floorMs, basisMs) : null;',
		test: [...WORLD, 'test/histories/triggerAdversary.test.cts'],
	},
	{
		name: 'first-known-page-stops',
		why: 'the old stop rule: a read stops at the first page that holds a known generation',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'slice.some(isPlaced) &&\n\t\t\t(longest >= largest ||',
		to: 'slice.some(isKnown) || (longest >= largest ||',
	},
	{
		name: 'turn-starts-over',
		why: 'a list found to run the other way takes a new starting point',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'family.commitOf({ ...state, direction, scan: undefined })',
		to: 'family.commitOf({ ...state, direction, scan: undefined, startAgain: true })',
	},
	{
		name: 'one-known-stops',
		why: 'a page of running ones and one known generation (changed) ends a read',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: '2 * inARow >= largest &&',
		to: 'inARow >= 1 &&',
	},
	{
		name: 'no-list-is-a-page',
		why: 'a read going on takes an answer with no list in it for an empty page',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'if (sawNone && (await readPage(',
		to: 'if (sawNone && !sawNone && (await readPage(',
	},
	{
		name: 'start-misses-running',
		why: 'a starting point knows only the running ones on the pages it keeps',
		file: `${TRIGGER}/generationState.ts`,
		from: '...(reading.pendingElsewhere ?? []),',
		to: '...(reading.pendingElsewhere ?? []).slice(0, 0),',
	},
	{
		name: 'gap-forgotten',
		why: 'a read going on leaves unknown ones out without marking where',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'else mark(kept, GAP);',
		to: 'else void GAP;',
	},
	{
		name: 'no-scan',
		why: 'no progress rule: a read out of time starts again from the top at the next poll',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: '=== backward ? state.scan : undefined,',
		to: '=== backward ? undefined : undefined,',
	},
	{
		name: 'account-by-credential',
		why: 'the old account key: the credential chosen, not the organization the service reports',
		file: `${TRIGGER}/pollStore.ts`,
		from: 'if (organization !== undefined) return',
		to: 'if (organization === "never") return',
	},
	{
		name: 'below-known-is-new',
		why: 'an unknown generation below the lowest known one fires (a clean-up fires old work)',
		file: `${TRIGGER}/generationState.ts`,
		from: 'return onlyArrivals || (lowestKnown < 0 ? !replaced : index < lowestKnown);',
		to: 'return true;',
	},
	{
		name: 'nothing-known-fires-all',
		why: 'a list that shows none of what the memory holds is all new (a full clean-up fires old work)',
		file: `${TRIGGER}/generationState.ts`,
		from: 'return onlyArrivals || (lowestKnown < 0 ? !replaced : index < lowestKnown);',
		to: 'return onlyArrivals || (lowestKnown < 0 ? true : index < lowestKnown);',
	},
	{
		name: 'key-without-status',
		why: 'the memory keyed by id alone: a generation run again under its id never fires again',
		file: `${TRIGGER}/generationState.ts`,
		from: 'export const keyOf = (id: string, status: string): string => `${id}|${status}`;',
		to: 'export const keyOf = (id: string, _status: string): string => id;',
	},
	{
		name: 'future-finish-believed',
		why: 'a finish time in 2099 is believed: every later generation is placed old',
		file: `${TRIGGER}/generationState.ts`,
		from: '(finishedAt ?? Infinity) <= nowMs + FUTURE_FINISH_MARGIN_MS ?',
		to: 'true ?',
	},
	{
		name: 'scan-keeps-the-newest',
		why: 'a read that goes on keeps the newest unknown generations, not the deepest (the oldest)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'const left = unknown(text) && !inPrefix(index) && over-- > 0;',
		to: 'const left = unknown(text) && !inPrefix(index) && read.slice(index).filter(unknown).length <= over;',
	},
	{
		name: 'stop-hides-running',
		why: 'past a stop the page is not looked at: one running below it is never known (seed 50302)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'if (id !== undefined) pendingElsewhere.push(id);',
		to: 'if (id === "never") pendingElsewhere.push(id);',
	},
	{
		name: 'last-page-stops',
		why: 'a list read from its end stops at its last page alone (seed 50402)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: '!(how.backward && pages === 0 && !how.from) && tellsOrder() && how.stopAt(slice);',
		to: 'tellsOrder() && how.stopAt(slice);',
	},
	{
		name: 'mark-by-details',
		why: 'a due one moves the finish-time mark only by details read when it comes out: none after its last try failed',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: "if (typeof finishedMs === 'number')",
		to: "if (typeof finishedMs === 'number' && items.at(-1)?.json.error === undefined)",
	},
	{
		name: 'turn-mid-read',
		why: 'with nothing remembered, a read from the top found running the other way goes on from the end (seed 55304)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'if (turned && reading.reachedEnd && !state.scan) {',
		to: 'if (turned && ((!seen.size && !state.due.length) || (reading.reachedEnd && !state.scan))) {',
	},
	{
		name: 'backward-no-step-back',
		why: 'a read from the end going on does not look back: one moved down a page by an insertion at the start is skipped (seed 55308)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: 'const stepped = how.from && how.readBefore && how.from.cursor === undefined;',
		to: 'const stepped = how.from && how.readBefore && !how.backward && how.from.cursor === undefined;',
	},
	{
		name: 'stops-before-order-known',
		why: 'a read from the top stops though its times cannot tell the order yet: what finished at the end of a list that grows there is never read (seed 55314)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: '!(how.backward && pages === 0 && !how.from) && tellsOrder() && how.stopAt(slice);',
		to: '!(how.backward && pages === 0 && !how.from) && (tellsOrder() || true) && how.stopAt(slice);',
	},
	{
		name: 'scan-hides-run-again',
		why: 'a read going on keeps a known one finished after the mark (run again) as a run of known ones: its run again never fires (seed 55314)',
		file: `${TRIGGER}/pollGenerations.ts`,
		from: '(finishedMs === undefined || mark === null || finishedMs <= mark)',
		to: '(finishedMs === undefined || mark === null || finishedMs <= Infinity)',
	},
	{
		name: 'guard-on-latest-finish',
		why: "the finish guard rests on the latest finish fired, also by a decision that left unknown ones unread: a run again fired from a read's last page places the backlog it left out old (seed 55326)",
		file: `${TRIGGER}/generationState.ts`,
		from: 'const guard = guardOf(state);',
		to: 'const guard = state.finishedUpToMs;',
	},
	{
		name: 'failure-key-without-date',
		why: 'a failure remembered by id alone: a post queued again that fails again at a new date never fires',
		file: `${TRIGGER}/postState.ts`,
		from: ': `${post.id}|failed|${date}`;',
		to: ': `${post.id}|failed`;',
		test: POST_MODEL,
	},
	{
		name: 'any-date-is-new',
		why: 'no due-date rule: a failed post only moved to an old date fires again',
		file: `${TRIGGER}/postState.ts`,
		from: '(post.date !== undefined && post.date.getTime() >= dueSinceMs)',
		to: '(post.date !== undefined && post.date.getTime() >= dueSinceMs - 1e15)',
		test: POST_MODEL,
	},
	{
		name: 'waiting-forgotten',
		why: 'a post seen waiting is judged by its due date alone: one that goes out late is lost',
		file: `${TRIGGER}/postState.ts`,
		from: '(waiting.has(post.id) ||',
		to: '(false ||',
		test: POST_MODEL,
	},
];

/** The environment without the model tests' settings: the seeded run, as `npm test` plays it. */
function withoutModelSettings(env) {
	const copy = { ...env };
	for (const family of ['TRIGGER', 'POST'])
		for (const name of ['SEED', 'RUNS', 'PATH']) delete copy[`${family}_MODEL_${name}`];
	return copy;
}

/** The file a mutant is applied to now, and its text: put back however the run ends. */
let applied;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(signal, () => {
		if (applied) writeFileSync(applied.path, applied.source);
		process.exit(130);
	});

const only = process.argv.slice(2);
const results = [];
for (const mutant of MUTANTS.filter((m) => !only.length || only.includes(m.name))) {
	const path = join(ROOT, mutant.file);
	const source = readFileSync(path, 'utf8');
	if (!source.includes(mutant.from)) {
		results.push({ ...mutant, verdict: 'NOT APPLIED (source changed)' });
		console.log(`${mutant.name}: NOT APPLIED (the source no longer has the text it replaces)`);
		continue;
	}
	applied = { path, source };
	writeFileSync(path, source.replace(mutant.from, mutant.to));
	try {
		const tests = [mutant.test ?? GENERATION_MODEL].flat();
		const run = spawnSync('npx', ['jest', ...tests], {
			cwd: ROOT,
			encoding: 'utf8',
			env: withoutModelSettings(process.env),
		});
		const output = `${run.stdout}${run.stderr}`;
		// A model's finding ("Cause:"), or a world test's failed expectation (the first one named).
		const cause =
			/Cause:\s*\n\s*(.*)/.exec(output)?.[1]?.trim() ??
			(/Test suite failed to run/.test(output)
				? ''
				: (/● (.*›.*)/.exec(output)?.[1]?.trim() ?? ''));
		// Caught only by a finding of the model: a test that fails to compile catches nothing.
		const verdict =
			run.status === 0
				? 'SURVIVED'
				: cause
					? `caught: ${cause}`
					: 'BROKEN (the test failed without a finding: does the mutant compile?)';
		results.push({ ...mutant, verdict });
	} finally {
		writeFileSync(path, source);
		applied = undefined;
	}
	console.log(`${mutant.name}: ${results[results.length - 1].verdict}`);
}
const survivors = results.filter((result) => !result.verdict.startsWith('caught'));
console.log(`\n${results.length - survivors.length} of ${results.length} mutants caught`);
process.exit(survivors.length ? 1 : 0);
