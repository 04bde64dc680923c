/**
 * `npm run bench`: the performance goals, measured against the sandbox in one run, each beside a
 * baseline from the same run. Prints a table, writes bench/results.json and BENCHMARKS.md.
 * These are measurements, not tests: nothing here fails CI. Each family of rows, with its goals,
 * is a file of bench/rows/; what they share is bench/harness.cts (and bench/realN8n.cts).
 * `npm run bench <suite> …` runs those suites only and keeps the other rows of BENCHMARKS.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import { BENCH_DIR, log, rows, type Row, type Suite } from './harness.cjs';
import { suites as memory } from './rows/memory.cjs';
import { suites as n8nPerItem } from './rows/n8nPerItem.cjs';
import { suites as overhead } from './rows/overhead.cjs';
import { suites as pacing } from './rows/pacing.cjs';
import { suites as triggerBacklog } from './rows/triggerBacklog.cjs';
import { suites as triggerState } from './rows/triggerState.cjs';

/** Every suite, in the order a full run takes them (and its table lists them). */
const SUITES: Suite[] = [
	...overhead,
	...pacing,
	...triggerState,
	...triggerBacklog,
	...memory,
	...n8nPerItem,
];

/** The suite a row of an earlier table came from: the one that owns its name, else its first word. */
function suiteOf(name: string): string {
	return SUITES.find((suite) => suite.owns?.test(name))?.name ?? name.split(/[ ,]/)[0];
}

/** The rows of the last BENCHMARKS.md table. */
function previousRows(): Row[] {
	const file = join(BENCH_DIR, '..', 'BENCHMARKS.md');
	if (!existsSync(file)) return [];
	const cell = (text: string) =>
		text === '' ? null : Number.isFinite(Number(text)) ? Number(text) : text;
	// The table of `npm run bench` only: the sections after it (the trigger soak) are other figures.
	const text = readFileSync(file, 'utf8');
	return (text.includes('\n## ') ? text.slice(0, text.indexOf('\n## ')) : text)
		.split('\n')
		.filter(
			(line) =>
				line.startsWith('| ') && !line.startsWith('| benchmark') && !line.startsWith('| ---'),
		)
		.map((line) => line.slice(2, -2).split(' | '))
		.map(([name, value, unit, baseline, ratio, goal, met]) => ({
			name,
			value: Number(value),
			unit,
			baseline: cell(baseline) as number | null,
			ratio: cell(ratio) as number | null,
			goal,
			met: met === 'yes',
		}));
}

async function main() {
	const only = process.argv.slice(2);
	for (const { name, run } of SUITES) {
		if (only.length && !only.includes(name)) continue;
		log(`running ${name}`);
		await run();
	}
	if (only.length) {
		// A partial run keeps the other suites' rows from the committed BENCHMARKS.md table.
		rows.unshift(...previousRows().filter((row) => !only.includes(suiteOf(row.name))));
	}
	const table = [
		'| benchmark | value | unit | baseline | ratio | goal | met |',
		'| --- | --- | --- | --- | --- | --- | --- |',
		...rows.map(
			(r) =>
				`| ${r.name} | ${r.value} | ${r.unit} | ${r.baseline ?? ''} | ${r.ratio ?? ''} | ${r.goal} | ${r.met ? 'yes' : 'no'} |`,
		),
	].join('\n');
	console.log(`\n${table}\n`);
	mkdirSync(BENCH_DIR, { recursive: true });
	writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(rows, null, 2)}\n`);
	const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
	// Sections of figures from other commands (the trigger's soak run) are kept as they are.
	const benchmarksFile = join(BENCH_DIR, '..', 'BENCHMARKS.md');
	const before = existsSync(benchmarksFile) ? readFileSync(benchmarksFile, 'utf8') : '';
	const otherSections = before.includes('\n## ') ? before.slice(before.indexOf('\n## ')) : '';
	writeFileSync(
		benchmarksFile,
		`# Benchmarks\n\nLatest \`npm run bench${only.length ? ` -- ${only.join(' ')}` : ''}\`: ${new Date().toISOString().slice(0, 10)}, on ${machine}${only.length ? ' (the other rows are kept from earlier runs, possibly on another machine)' : ''}. n8n 2.41.1 under Node 24 for the upload, download and per-item-in-n8n rows.\n\n${table}\n\nHow each is measured: see \`bench/rows/\` (one file per family of rows, each row beside its goal). Baselines come from the same run: a raw \`fetch\` loop and n8n's bare request helper for per-item time, n8n's HTTP Request node in the same n8n for per-item time in n8n and for download memory, the limiter's allowed rate (20/s) for batches, a workflow that reads a file of the same size into n8n for upload and download memory (for the download also the same Get Generation without Download Outputs).\n${otherSections}`,
	);
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
