/**
 * `npm run bench`: the performance goals, measured against the sandbox in one run, each beside a
 * baseline from the same run. Prints a table, writes bench/results.json and BENCHMARKS.md.
 * These are measurements, not tests: nothing here fails CI.
 */
import { execFile, fork } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';

import { NodeConnectionTypes } from 'n8n-workflow';

import {
	ACTION_NODE_TYPE,
	activeTrigger,
	registerNodeType,
	runChain,
	START_NODE_TYPE,
	triggerWorkflow,
} from '../test/helpers/harness.cjs';
import {
	baseline,
	keyOf,
	KNOWN_RUN,
	MAX_ATTEMPTS,
	MAX_DUE,
	MAX_PENDING,
	MAX_SCAN_READ,
	MAX_SEEN,
	settle,
	STATE_MAX_BYTES,
} from '../nodes/SocialContentTrigger/generationState';
import { KeyMemory } from '../nodes/SocialContentTrigger/idMemory';
import {
	baselinePosts,
	decidePosts,
	MAX_FINAL,
	MAX_WAITING,
} from '../nodes/SocialContentTrigger/postState';
import { readPost } from '../nodes/shared/shapes';

/** The floor any n8n node pays: n8n's own authenticated request helper in a bare loop. */
class HelperLoop implements INodeType {
	description = {
		displayName: 'Helper Loop',
		name: 'helperLoop',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Helper Loop' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'socialContentApi', required: true }],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		const credentials = await this.getCredentials('socialContentApi');
		for (const item of items) {
			item.json = (await this.helpers.httpRequestWithAuthentication.call(this, 'socialContentApi', {
				method: 'POST',
				url: `${String(credentials.instanceUrl)}/api/public/v1/hooks/score`,
				body: { text: item.json.text },
				json: true,
			})) as IDataObject;
		}
		return [items];
	}
}
registerNodeType('bench.helperLoop', new HelperLoop());

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../test/sandbox/server.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../scripts/n8n-runtime.js');

interface Row {
	name: string;
	value: number;
	unit: string;
	baseline: number | null;
	ratio: number | null;
	goal: string;
	met: boolean;
}
const rows: Row[] = [];
const log = (line: string) => console.log(`[bench] ${line}`);

async function withSandbox<T>(
	options: IDataObject,
	run: (url: string, sandbox: IDataObject) => Promise<T>,
): Promise<T> {
	const sandbox = createSandbox(options);
	const url = await sandbox.listen();
	try {
		return await run(url, sandbox);
	} finally {
		await sandbox.close();
	}
}

async function runNode(
	url: string,
	parameters: IDataObject,
	items: IDataObject[],
	type = ACTION_NODE_TYPE,
) {
	return await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type,
				parameters: parameters as never,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
				onError: 'continueRegularOutput',
			},
		],
		{
			credentials: { socialContentApi: { instanceUrl: url, apiKey: 'sk_sandbox_demo_key' } },
			input: items,
			settings: { timezone: 'UTC' },
		},
	);
}

/** Per-item overhead: the node against a raw fetch loop making the same requests. */
async function overhead() {
	const n = 400;
	await withSandbox(
		{ buckets: { default: { limit: 1e9 }, hooks: { limit: 1e9 } } },
		async (url) => {
			const raw = async () => {
				const started = performance.now();
				for (let i = 0; i < n; i++) {
					const response = await fetch(`${url}/api/public/v1/hooks/score`, {
						method: 'POST',
						headers: {
							Authorization: 'sk_sandbox_demo_key',
							'Content-Type': 'application/json',
							Accept: 'application/json',
						},
						body: JSON.stringify({ text: `hook ${i}` }),
					});
					await response.json();
				}
				return performance.now() - started;
			};
			const node = async () => {
				const started = performance.now();
				const result = await runNode(
					url,
					{ resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
					Array.from({ length: n }, (_, i) => ({ text: `hook ${i}` })),
				);
				if (result.error || result.output('Node').some((item) => item.json.error))
					throw new Error('overhead run failed');
				return performance.now() - started;
			};
			const helper = async () => {
				const started = performance.now();
				const result = await runNode(
					url,
					{},
					Array.from({ length: n }, (_, i) => ({ text: `hook ${i}` })),
					'bench.helperLoop',
				);
				if (result.error) throw new Error('helper loop failed');
				return performance.now() - started;
			};
			await raw();
			await node();
			await helper();
			const rawTimes: number[] = [];
			const nodeTimes: number[] = [];
			const helperTimes: number[] = [];
			for (let round = 0; round < 5; round++) {
				rawTimes.push(await raw());
				nodeTimes.push(await node());
				helperTimes.push(await helper());
			}
			const nodeMs = median(nodeTimes) / n;
			const rawMs = median(rawTimes) / n;
			const helperMs = median(helperTimes) / n;
			rows.push({
				name: `per-item time, Hook Score node, ${n} items vs raw fetch loop (median of 5)`,
				value: round(nodeMs, 3),
				unit: 'ms/item',
				baseline: round(rawMs, 3),
				ratio: round(nodeMs / rawMs, 2),
				// #6 set ≤ 1.15 × fetch; a node must send through n8n's request helper, so #13 made the
				// next row the goal. This row shows what sending through n8n costs.
				goal: "(for comparison: a node sends through n8n's request helper; the goal is the next row's, #13)",
				met: true,
			});
			rows.push({
				name: `per-item time, same node vs n8n's request helper in a bare loop`,
				value: round(nodeMs, 3),
				unit: 'ms/item',
				baseline: round(helperMs, 3),
				ratio: round(nodeMs / helperMs, 2),
				goal: '≤ 1.10 × the bare helper',
				met: nodeMs / helperMs <= 1.1,
			});
		},
	);
}

/**
 * 1,000 Score items against rate limiters the spec leaves open, each allowing 20 requests a
 * second: token buckets (bursts of 20 and 5), fixed windows (10 per 500 ms, 20 per second) and a
 * sliding window, answering retryAfter in whole seconds (no header: the run learns the unit) or
 * in fractions; default settings (1 at a time) and 10 concurrent.
 */
async function batch() {
	const n = Number(process.env.BENCH_BATCH_ITEMS ?? 1000);
	const allowed = 20;
	const limiters: Array<[string, IDataObject]> = [
		[
			'token bucket 20/s, retryAfter whole seconds',
			{ buckets: { hooks: { limit: 20 } }, retryAfter: 'whole' },
		],
		[
			'token bucket 20/s, retryAfter fractions',
			{ buckets: { hooks: { limit: 20 } }, retryAfter: 'fraction' },
		],
		[
			'fixed window 10/500 ms, retryAfter fractions',
			{ buckets: { hooks: { limit: 10, windowMs: 500 } }, retryAfter: 'fraction' },
		],
		[
			'fixed window 10/500 ms, retryAfter whole seconds',
			{ buckets: { hooks: { limit: 10, windowMs: 500 } }, retryAfter: 'whole' },
		],
		[
			'token bucket 20/s with a burst of 5, retryAfter whole seconds',
			{ buckets: { hooks: { limit: 20, burst: 5 } }, retryAfter: 'whole' },
		],
		[
			'sliding window 10/500 ms, retryAfter whole seconds',
			{ buckets: { hooks: { limit: 10, windowMs: 500, sliding: true } }, retryAfter: 'whole' },
		],
		[
			'fixed window 20/s, retryAfter whole seconds',
			{ buckets: { hooks: { limit: 20, windowMs: 1000 } }, retryAfter: 'whole' },
		],
	];
	for (const [limiter, config] of limiters) {
		for (const concurrency of [1, 10]) {
			const run = await scoreRun(config, n, concurrency);
			const rate = n / run.seconds;
			const refusedShare = run.refused / Math.max(1, run.sent);
			const met = rate / allowed >= 0.9 && run.failed === 0 && refusedShare <= 0.05;
			log(
				`${limiter}, ${concurrency} concurrent: ${rate.toFixed(2)} req/s, ${run.failed} failed, ${run.refused} 429s of ${run.sent}`,
			);
			rows.push({
				name: `batch rate, ${n} Score items, ${limiter}, ${concurrency} concurrent (failed ${run.failed}; 429 ${run.refused} of ${run.sent} sent = ${(refusedShare * 100).toFixed(1)} %)`,
				value: round(rate, 2),
				unit: 'req/s',
				baseline: allowed,
				ratio: round(rate / allowed, 3),
				goal: '≥ 0.90 × allowed, 0 failed, 429 ≤ 5 % of sent',
				met,
			});
		}
	}
}

/**
 * The node run once against a sandbox with `config`: its time, its output (none if the run
 * failed), requests sent on `route` and 429s.
 */
async function timedRun(
	config: IDataObject,
	parameters: IDataObject,
	items: IDataObject[],
	route: string,
) {
	return await withSandbox(config, async (url, sandbox) => {
		const state = sandbox.state as {
			counts: { rateLimited: number; byRoute: Record<string, number> };
		};
		const started = performance.now();
		const result = await runNode(url, parameters, items);
		return {
			seconds: (performance.now() - started) / 1000,
			output: result.error ? undefined : result.output('Node'),
			sent: state.counts.byRoute[route] ?? 0,
			refused: state.counts.rateLimited,
		};
	});
}

/** `n` Score items through the node against the sandbox with `config`: time taken, failed items, Score requests sent and 429s. */
async function scoreRun(config: IDataObject, n: number, concurrency: number) {
	const { output, ...run } = await timedRun(
		config,
		{
			resource: 'hook',
			operation: 'score',
			text: '={{ $json.text }}',
			requestOptions: { concurrency, maxRateLimitWait: 600 },
		},
		Array.from({ length: n }, (_, i) => ({ text: `hook ${i}` })),
		'POST /hooks/score',
	);
	return { ...run, failed: output ? output.filter((item) => item.json.error).length : n };
}

/**
 * Squeeze, then release: 2,000 Score items, 1 and 10 at once, against a token bucket of 20 a second
 * (whole-second waits) that another workflow shares from the 10th to the 40th second (5 a second
 * left), then frees. The ideal time takes each phase at its rate; the run must come back to the
 * allowed rate within seconds of the release, not keep the squeezed pace.
 */
async function squeeze() {
	const n = Number(process.env.BENCH_SQUEEZE_ITEMS ?? 2000);
	const hooks = { limit: 20, squeeze: { fromMs: 10_000, toMs: 40_000, limit: 5 } };
	for (const concurrency of [1, 10]) {
		const run = await scoreRun({ buckets: { hooks }, retryAfter: 'whole' }, n, concurrency);
		// 20/s for 10 s, 5/s for 30 s, then 20/s for the rest.
		const idealSeconds = 40 + Math.max(0, n - 350) / 20;
		const refusedShare = run.refused / Math.max(1, run.sent);
		const ratio = idealSeconds / run.seconds;
		log(
			`squeeze then release, ${concurrency} concurrent: ${run.seconds.toFixed(1)} s (ideal ${idealSeconds} s), ${run.failed} failed, ${run.refused} 429s of ${run.sent}`,
		);
		rows.push({
			name: `squeeze then release, ${n} Score items, token bucket 20/s shared down to 5/s from 10 s to 40 s, retryAfter whole seconds, ${concurrency} concurrent (${run.seconds.toFixed(1)} s; failed ${run.failed}; 429 ${run.refused} of ${run.sent} sent = ${(refusedShare * 100).toFixed(1)} %)`,
			value: round(n / run.seconds, 2),
			unit: 'req/s',
			baseline: round(n / idealSeconds, 2),
			ratio: round(ratio, 3),
			goal: "≥ 0.67 × the ideal time's rate, 0 failed, 429 ≤ 5 % of sent",
			met: ratio >= 0.67 && run.failed === 0 && refusedShare <= 0.05,
		});
	}
}

/**
 * A limit that rises: Score items, 1 and 10 at once, against a token bucket of 20 a second that
 * another workflow shares for the run's first 20 s (2 a second left; whole-second waits, no
 * header), then frees. The ideal takes each phase at its rate (the bucket's 20, then 2 a second
 * for 20 s, then 20 a second); the run must find the new rate within seconds of the rise.
 */
async function rise() {
	for (const n of [300, 2000]) {
		for (const concurrency of [1, 10]) {
			const hooks = { limit: 20, squeeze: { fromMs: 0, toMs: 20_000, limit: 2 } };
			const run = await scoreRun({ buckets: { hooks }, retryAfter: 'whole' }, n, concurrency);
			const idealSeconds = 20 + Math.max(0, n - 60) / 20;
			const refusedShare = run.refused / Math.max(1, run.sent);
			const ratio = run.seconds / idealSeconds;
			log(
				`limit rises, ${n} items, ${concurrency} concurrent: ${run.seconds.toFixed(1)} s (ideal ${idealSeconds} s), ${run.failed} failed, ${run.refused} 429s of ${run.sent}`,
			);
			rows.push({
				name: `rise, ${n} Score items, token bucket 20/s shared down to 2/s for the first 20 s, retryAfter whole seconds, ${concurrency} concurrent (${run.seconds.toFixed(1)} s; failed ${run.failed}; 429 ${run.refused} of ${run.sent} sent = ${(refusedShare * 100).toFixed(1)} %)`,
				value: round(run.seconds, 1),
				unit: 's',
				baseline: round(idealSeconds, 1),
				ratio: round(ratio, 3),
				goal: '≤ 1.5 × the ideal time, 0 failed',
				met: ratio <= 1.5 && run.failed === 0,
			});
		}
	}
}

/**
 * One item of many requests (Media → Get Many with Return All over 1,500 pages of two files): the
 * pacer learns the run's size in requests, not only in items. Against the rising limit (2 a second
 * for the first 20 s, then 20) and the squeezed one (20, 5 from 10 s to 40 s, then 20).
 */
async function longItem() {
	const n = Number(process.env.BENCH_LONG_ITEM_REQUESTS ?? 1500);
	// The ideal takes each phase at its rate, as the rise and squeeze suites do.
	const cases = [
		[
			'shared down to 2/s for the first 20 s',
			{ fromMs: 0, toMs: 20_000, limit: 2 },
			20 + Math.max(0, n - 60) / 20,
		],
		[
			'shared down to 5/s from 10 s to 40 s',
			{ fromMs: 10_000, toMs: 40_000, limit: 5 },
			40 + Math.max(0, n - 350) / 20,
		],
	] as const;
	for (const [shared, squeeze, idealSeconds] of cases) {
		const config = {
			buckets: { default: { limit: 20, squeeze } },
			retryAfter: 'whole',
			mediaPageSize: 2,
			seedMedia: 2 * n,
		};
		const { output, ...timed } = await timedRun(
			config,
			{
				resource: 'media',
				operation: 'list',
				returnAll: true,
				requestOptions: { maxRateLimitWait: 600 },
			},
			[{}],
			'GET /media',
		);
		const run = {
			...timed,
			files: (output ?? []).filter((item) => !item.json.error).length,
			failed: !output || output.some((item) => item.json.error),
		};
		const ratio = run.seconds / idealSeconds;
		log(
			`one item, ${n} requests, token bucket ${shared}: ${run.seconds.toFixed(1)} s (ideal ${idealSeconds} s), ${run.files} files, ${run.refused} 429s of ${run.sent}`,
		);
		rows.push({
			name: `one item × ${n} requests (Media → Get Many, Return All, pages of 2), token bucket 20/s ${shared}, retryAfter whole seconds (${run.seconds.toFixed(1)} s; ${run.files} files; 429 ${run.refused} of ${run.sent} sent)`,
			value: round(run.seconds, 1),
			unit: 's',
			baseline: round(idealSeconds, 1),
			ratio: round(ratio, 3),
			goal: '≤ 1.5 × the ideal time, every file, 0 failed',
			met: ratio <= 1.5 && run.files === 2 * n && !run.failed,
		});
	}
}

/**
 * A short run: 200 Score items, 1 and 10 at once, against a fixed window of 20 a second with
 * whole-second waits (no header): most workflows send tens or hundreds of items, and the pace
 * must be found within their few seconds.
 */
async function short() {
	const n = 200;
	const allowed = 20;
	for (const concurrency of [1, 10]) {
		const config = { buckets: { hooks: { limit: 20, windowMs: 1000 } }, retryAfter: 'whole' };
		const run = await scoreRun(config, n, concurrency);
		const rate = n / run.seconds;
		log(
			`short run, ${concurrency} concurrent: ${rate.toFixed(2)} req/s, ${run.failed} failed, ${run.refused} 429s of ${run.sent}`,
		);
		rows.push({
			name: `short run, ${n} Score items, fixed window 20/s, retryAfter whole seconds, ${concurrency} concurrent (failed ${run.failed}; 429 ${run.refused} of ${run.sent} sent)`,
			value: round(rate, 2),
			unit: 'req/s',
			baseline: allowed,
			ratio: round(rate / allowed, 3),
			goal: '≥ 0.85 × allowed, 0 failed',
			met: rate / allowed >= 0.85 && run.failed === 0,
		});
	}
}

/**
 * Trigger, against the sandbox in each list shape the spec leaves open: state size after 100,000
 * generations (a few of each poll finish one poll late, out of order), and requests per poll
 * when nothing is new.
 */
async function trigger() {
	const regimes: Array<[string, IDataObject, number]> = [
		[
			'finish times, unpaged',
			{ generationTimestamps: true, generationOrder: 'creation', generationPageSize: 0 },
			9973,
		],
		[
			'no timestamps, unpaged',
			{ generationTimestamps: false, generationOrder: 'creation', generationPageSize: 0 },
			6007,
		],
		[
			'no timestamps, paged 100',
			{ generationTimestamps: false, generationOrder: 'creation', generationPageSize: 100 },
			997,
		],
		[
			'finish times, paged 100, completion order',
			{ generationTimestamps: true, generationOrder: 'completion', generationPageSize: 100 },
			1009,
		],
	];
	// Batch sizes are primes, none the memory's size (6,000) or a divisor of 100,000: a batch of
	// exactly the memory's old size is what hid its bug (#38).
	for (const [name, config, perPoll] of regimes) {
		await withSandbox({ ...config, buckets: { studio: { limit: 1e6 } } }, async (url, sandbox) => {
			const state = sandbox.state as {
				generations: IDataObject[];
				counts: { byRoute: Record<string, number> };
			};
			const credentials = { socialContentApi: { instanceUrl: url, apiKey: 'sk_sandbox_demo_key' } };
			const workflow = triggerWorkflow({ events: ['done'] });
			const active = activeTrigger(workflow, credentials);
			let clock = Date.UTC(2026, 0, 1);
			let late: IDataObject[] = [];
			const fired = new Set<string>();
			let repeated = 0;
			const record = (id: number, status: string) => {
				const at = new Date((clock += 10)).toISOString();
				return {
					id: `gen_${id}`,
					status,
					format: 'slideshow',
					credits: 1,
					createdAt: at,
					updatedAt: at,
					...(status === 'done'
						? { finishedAt: at, outputs: [{ id: `m_${id}`, path: `/uploads/gen_${id}-1.png` }] }
						: { outputs: [] }),
				};
			};
			const total = 100_000;
			// One finished before activation: the starting point is a list with something in it.
			state.generations.unshift(record(-1, 'done'));
			await active.poll();
			for (let made = 0; made < total; ) {
				const batch = Math.min(perPoll, total - made);
				for (const generation of late)
					Object.assign(generation, {
						status: 'done',
						finishedAt: new Date((clock += 10)).toISOString(),
						outputs: [{ id: 'm', path: '/m.png' }],
					});
				const fresh = Array.from({ length: batch }, (_, i) =>
					record(made + i, i >= batch - 2 ? 'running' : 'done'),
				);
				made += batch;
				late = fresh.slice(-2);
				state.generations.unshift(...fresh.reverse());
				for (const item of (await active.poll())?.[0] ?? []) {
					if (fired.has(String(item.json.id))) repeated++;
					fired.add(String(item.json.id));
				}
			}
			const bytes = JSON.stringify(workflow.staticData).length;
			const before = state.counts.byRoute['GET /studio/generations'] ?? 0;
			// Quiet polls: anything they fire is old, fired again.
			for (let i = 0; i < 20; i++) repeated += (await active.poll())?.[0]?.length ?? 0;
			const perQuietPoll = ((state.counts.byRoute['GET /studio/generations'] ?? 0) - before) / 20;
			const lost = 100_000 - 2 - fired.size;
			rows.push({
				name: `trigger state after 100,000 generations in batches of ${perPoll}, ${name} (fired again: ${repeated}, lost: ${lost})`,
				value: bytes,
				unit: 'bytes',
				baseline: 65536,
				ratio: round(bytes / 65536, 3),
				goal: '≤ 64 KiB, none lost or repeated',
				met: bytes <= 65536 && lost === 0 && repeated === 0,
			});
			rows.push({
				name: `trigger requests per poll, nothing new, ${name}`,
				value: perQuietPoll,
				unit: 'requests',
				baseline: null,
				ratio: null,
				goal: '1 (and the account ping)',
				met: perQuietPoll === 1,
			});
		});
	}
}

/**
 * A quiet poll over 50,000 unpaged generations (no timestamps, ~17 MB of JSON): the CPU time of
 * n8n's process for the poll (receiving and parsing the answer, deciding, saving), from a local
 * server answering a body prepared beforehand. Three quiet polls; the median is the row.
 */
async function triggerQuiet() {
	const { createServer } = await import('node:http');
	const count = 50_000;
	const list = Array.from({ length: count }, (_, i) => ({
		id: `gen_${String(count - i).padStart(8, '0')}_${'x'.repeat(24)}`,
		status: 'done',
		format: 'slideshow',
		credits: 3,
		outputs: [{ id: `m_${i}`, path: `/uploads/gen_${count - i}-1.png` }],
		input: {
			hook: 'A hook of a few words, as a generation keeps it',
			slides: ['The first slide says this', 'The second slide says that', 'The last one ends'],
		},
		createdBy: 'user_0123456789abcdef',
	}));
	const body = Buffer.from(JSON.stringify(list));
	const ping = Buffer.from(JSON.stringify({ ok: true, organization: 'org_bench', tools: [] }));
	const server = createServer((request, response) => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(request.url?.startsWith('/api/public/v1/agents/ping') ? ping : body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const port = (server.address() as { port: number }).port;
		const credentials = {
			socialContentApi: { instanceUrl: `http://127.0.0.1:${port}`, apiKey: 'sk_bench' },
		};
		const workflow = triggerWorkflow({ events: ['done'] });
		const active = activeTrigger(workflow, credentials);
		await active.poll(); // the starting point
		const times: number[] = [];
		for (let poll = 0; poll < 3; poll++) {
			const before = process.cpuUsage();
			const fired = await active.poll();
			const used = process.cpuUsage(before);
			if (fired) throw new Error('a quiet poll fired');
			times.push(Math.round((used.user + used.system) / 1000));
		}
		const median = [...times].sort((a, b) => a - b)[1];
		rows.push({
			name: `trigger quiet poll, 50,000 unpaged generations (${(body.length / 1e6).toFixed(1)} MB), CPU time of n8n's process (runs: ${times.join(', ')} ms)`,
			value: median,
			unit: 'ms',
			baseline: 1000,
			ratio: round(median / 1000, 3),
			goal: '≤ 1,000 ms (median of three)',
			met: median <= 1000,
		});
	} finally {
		server.close();
	}
}

/**
 * Trigger limits: the state with every part at its cap (36- and 64-character ids), and one poll's
 * wall time when 100 new generations' outputs come from a slow file server (400 ms a file).
 */
async function triggerLimits() {
	for (const idLength of [36, 64]) {
		const id = (n: number) => String(n).padStart(idLength, '0');
		const ids = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => id(from + i));
		const start = baseline(
			{ entries: ids(0, MAX_SEEN * 2).map((value) => ({ id: value, status: 'done' })) },
			Date.now(),
		);
		const full = settle(
			{ ...start, pending: ids(1e6, MAX_PENDING * 2) },
			{ listed: [], pending: ids(1e6, MAX_PENDING * 2), finishedUpToMs: Date.now() },
			{
				fired: ids(2e6, 300).map((value) => keyOf(value, 'done')),
				due: ids(3e6, MAX_DUE * 2).map((value) => [value, 'done', MAX_ATTEMPTS - 1, Date.now()]),
				resolvedPending: [],
				scan: {
					page: 123_457,
					read: ids(4e6, MAX_SCAN_READ).flatMap((value) => [
						`done|${Date.now()}|${value}`,
						KNOWN_RUN,
					]),
				},
			},
		);
		const bytes = JSON.stringify({ 'node:Trigger': { generations: full } }).length;
		const remembered = new KeyMemory(full.seen).size;
		rows.push({
			name: `trigger state, every part at its cap, ${idLength}-character ids (${remembered} ids remembered)`,
			value: bytes,
			unit: 'bytes',
			baseline: STATE_MAX_BYTES,
			ratio: round(bytes / STATE_MAX_BYTES, 3),
			goal: '≤ 64 KiB',
			met: bytes <= STATE_MAX_BYTES,
		});
	}
	{
		// Post events: every outcome and waiting hash at its cap, beside the generations' state.
		const post = (id: string, state: string) =>
			readPost({ id, state, publishDate: new Date().toISOString() })!;
		const posts = [
			...Array.from({ length: MAX_FINAL * 2 }, (_, i) =>
				post(`post_${i}_${'x'.repeat(30)}`, 'PUBLISHED'),
			),
			...Array.from({ length: MAX_WAITING * 2 }, (_, i) =>
				post(`wait_${i}_${'y'.repeat(30)}`, 'QUEUE'),
			),
		];
		const full = decidePosts(baselinePosts([], Date.now()), posts, Date.now()).next;
		const bytes = JSON.stringify({ posts: full }).length;
		rows.push({
			name: `trigger state, every part at its cap, post events (${MAX_FINAL} outcomes, ${MAX_WAITING} waiting)`,
			value: bytes,
			unit: 'bytes',
			baseline: STATE_MAX_BYTES,
			ratio: round(bytes / STATE_MAX_BYTES, 3),
			goal: '≤ 64 KiB',
			met: bytes <= 32 * 1024,
		});
	}
	await withSandbox(
		{
			queuedMs: 0,
			runningMs: 0,
			generationTimestamps: false,
			buckets: { studio: { limit: 1e6 } },
			credits: 1000,
		},
		async (url, sandbox) => {
			const state = sandbox.state as { faults: IDataObject[] };
			const credentials = { socialContentApi: { instanceUrl: url, apiKey: 'sk_sandbox_demo_key' } };
			const workflow = triggerWorkflow({ events: ['done'], downloadOutputs: true });
			const active = activeTrigger(workflow, credentials);
			const headers = { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' };
			// One finished before activation: the starting point is a list with something in it (after
			// an empty one, more than 20 at once without finish times would be taken as a history).
			await fetch(`${url}/api/public/v1/studio/generations`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ formatId: 'image_fast', input: { prompt: 'before' } }),
			});
			await fetch(`${url}/__sandbox/finish`, { method: 'POST' });
			await active.poll();
			for (let i = 0; i < 100; i++) {
				await fetch(`${url}/api/public/v1/studio/generations`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ formatId: 'image_fast', input: { prompt: `bench ${i}` } }),
				});
			}
			await fetch(`${url}/__sandbox/finish`, { method: 'POST' });
			state.faults.push({
				kind: 'slow',
				delayMs: 400,
				method: 'GET',
				path: 'uploads/',
				count: 1e6,
			});
			const fired = new Map<string, number>();
			const wallMs: number[] = [];
			for (let poll = 0; poll < 10 && fired.size < 100; poll++) {
				const started = Date.now();
				for (const item of (await active.poll())?.[0] ?? [])
					fired.set(String(item.json.id), (fired.get(String(item.json.id)) ?? 0) + 1);
				wallMs.push(Date.now() - started);
			}
			const slowest = Math.max(...wallMs);
			const once = [...fired.values()].every((n) => n === 1) && fired.size === 100;
			log(
				`trigger, 100 slow outputs: polls of ${wallMs.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s; fired ${fired.size}, each once: ${once}`,
			);
			rows.push({
				name: `trigger poll wall time, 100 new generations, outputs at 400 ms a file (${wallMs.length} polls, ${fired.size} fired, each once: ${once})`,
				value: round(slowest / 1000, 1),
				unit: 's',
				baseline: 30,
				ratio: round(slowest / 30_000, 3),
				goal: '< 30 s per poll, all fired once',
				met: slowest < 30_000 && once,
			});
		},
	);
}

/**
 * A real n8n (binary data in filesystem mode) with the package installed and a credential for the
 * sink (bench/sink.js), for the memory rows: each workflow runs through `n8n execute` under
 * /usr/bin/time, which reports the process's peak RSS.
 */
async function withRealN8n<T>(fileMiB: number, run: (n8n: RealN8n) => Promise<T>): Promise<T> {
	const { nodeBin, n8nBin } = runtime.installN8n();
	const work = mkdtempSync(join(tmpdir(), 'sc-bench-'));
	const files = join(work, 'files');
	mkdirSync(files);
	const sink = fork(join(__dirname, 'sink.js'), {
		env: { ...process.env, SINK_FILE_MIB: String(fileMiB) },
	});
	const port = await new Promise<number>((resolve) =>
		sink.once('message', (message: { port: number }) => resolve(message.port)),
	);
	const userFolder = join(work, 'n8n');
	mkdirSync(userFolder);
	runtime.installPackage(userFolder);
	// Beside it, the bench-only floor node (bench/floorNode): never part of the package.
	cpSync(
		join(__dirname, 'floorNode'),
		join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-bench-floor'),
		{ recursive: true },
	);
	const env = runtime.n8nEnv(nodeBin, userFolder, 5999, 6999, {
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_RESTRICT_FILE_ACCESS_TO: files,
		N8N_LOG_LEVEL: 'info',
	});
	const cli = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
		(await promisify(execFile)('/usr/bin/time', ['-f', 'MAXRSS_KB=%M', n8nBin, ...args], {
			cwd: userFolder,
			env: { ...env, ...extraEnv },
			maxBuffer: 256 * 1024 * 1024,
		})) as { stdout: string; stderr: string };
	writeFileSync(
		join(work, 'creds.json'),
		JSON.stringify([
			{
				id: 'benchCred',
				name: 'bench',
				type: 'socialContentApi',
				data: { instanceUrl: `http://127.0.0.1:${port}`, apiKey: 'k' },
			},
			{
				id: 'benchHeader',
				name: 'header',
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: 'k' },
			},
		]),
	);
	await cli(['import:credentials', `--input=${join(work, 'creds.json')}`]);
	const n8n: RealN8n = {
		files,
		sinkUrl: `http://127.0.0.1:${port}`,
		async importWorkflows(workflows) {
			writeFileSync(join(work, 'wf.json'), JSON.stringify(workflows));
			await cli(['import:workflow', `--input=${join(work, 'wf.json')}`]);
		},
		async peakMiB(id, extraEnv) {
			const { stdout, stderr } = await cli(['execute', `--id=${id}`], extraEnv);
			if (!stdout.includes('Execution was successful'))
				throw new Error(
					`bench workflow ${id} failed: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`,
				);
			return Number(/MAXRSS_KB=(\d+)/.exec(stderr)?.[1]) / 1024;
		},
		async runData(id) {
			const { stdout } = await cli(['execute', `--id=${id}`, '--rawOutput']);
			const json = stdout.slice(stdout.indexOf('{'));
			return (JSON.parse(json) as { data: { resultData: { runData: IDataObject } } }).data
				.resultData.runData;
		},
		async sinkReport() {
			return await new Promise((resolve) => {
				sink.once('message', (message: { received: number; served: number }) => resolve(message));
				sink.send('report');
			});
		},
	};
	try {
		return await run(n8n);
	} finally {
		sink.kill();
		rmSync(work, { recursive: true, force: true });
	}
}

interface RealN8n {
	/** A folder n8n may read files from. */
	files: string;
	importWorkflows(workflows: IDataObject[]): Promise<void>;
	/** Runs a workflow by id; its process's peak RSS in MiB. */
	peakMiB(id: string, extraEnv?: NodeJS.ProcessEnv): Promise<number>;
	/** Runs a workflow by id; its run data (per node: execution time, items). */
	runData(id: string): Promise<IDataObject>;
	/** The sink's address (bench/sink.js answers any other POST with JSON). */
	sinkUrl: string;
	sinkReport(): Promise<{ received: number; served: number }>;
}

/** A workflow: a manual trigger, then the given nodes in a row (the package's nodes use the bench credential). */
function chainWorkflow(
	id: string,
	nodes: Array<{ name: string; type: string; typeVersion?: number; parameters: IDataObject }>,
): IDataObject {
	const all = [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} }, ...nodes];
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: all.map((node, index) => ({
			id: String(index),
			name: node.name,
			type: node.type,
			typeVersion: node.typeVersion ?? 1,
			position: [index * 200, 0],
			parameters: node.parameters,
			...(node.type.startsWith('n8n-nodes-social-content.')
				? { credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } } }
				: {}),
		})),
		connections: Object.fromEntries(
			all
				.slice(0, -1)
				.map((node, index) => [
					node.name,
					{ main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]] },
				]),
		),
	};
}

/** Rounds of the memory rows (upload, download): one run's peak varies by ±15 MiB with when V8 collects. */
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);

/** Each round's growth of a workflow's peak over its baseline's peak in the same round, for a row's name. */
function growthByRound(peaks: number[], baselinePeaks: number[]): string {
	return peaks.map((peak, index) => round(peak - baselinePeaks[index], 1)).join(', ');
}

/** Upload of a 1 GiB file in a real n8n: peak RSS growth over a workflow that only reads the file. */
async function upload() {
	const sizeMiB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
	await withRealN8n(sizeMiB, async (n8n) => {
		const filePath = join(n8n.files, 'big.bin');
		await promisify(execFile)('bash', ['-c', `head -c ${sizeMiB}M /dev/zero > ${filePath}`]);
		const read = {
			name: 'Read',
			type: 'n8n-nodes-base.readWriteFile',
			parameters: { fileSelector: filePath, options: {} },
		};
		const uploadNode = {
			name: 'Upload',
			type: 'n8n-nodes-social-content.socialContent',
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
		};
		await n8n.importWorkflows([
			chainWorkflow('benchReadOnly000', [read]),
			chainWorkflow('benchReadUpload0', [read, uploadNode]),
		]);
		// As for the download: a median over rounds, each round running both workflows.
		const peaks: Record<string, number[]> = { benchReadOnly000: [], benchReadUpload0: [] };
		for (let round = 0; round < MEMORY_ROUNDS; round++) {
			for (const id of Object.keys(peaks)) peaks[id].push(await n8n.peakMiB(id));
		}
		const readOnly = median(peaks.benchReadOnly000);
		const growth = median(peaks.benchReadUpload0) - readOnly;
		const runs = growthByRound(peaks.benchReadUpload0, peaks.benchReadOnly000);
		const { received } = await n8n.sinkReport();
		const all = sizeMiB * 1024 * 1024 * MEMORY_ROUNDS;
		rows.push({
			name: `upload ${sizeMiB} MiB in n8n: peak RSS growth over reading the file alone (median of ${MEMORY_ROUNDS}; rounds: ${runs})`,
			value: round(growth, 1),
			unit: 'MiB',
			baseline: round(readOnly, 1),
			ratio: null,
			goal: '≤ 64 MiB',
			met: growth <= 64 && received >= all,
		});
		rows.push({
			name: `upload bytes received by the server, ${MEMORY_ROUNDS} uploads`,
			value: received,
			unit: 'bytes',
			baseline: all,
			ratio: round(received / all, 4),
			goal: 'all (multipart adds a few hundred bytes)',
			met: received >= all,
		});
	});
}

/**
 * Download of a 1 GiB studio output in a real n8n (Studio → Get Generation with Download Outputs).
 * The goal's row is measured as the upload row is: over a workflow that brings a file of the same
 * size into n8n (there, Read/Write Files from Disk). The rows after it show what that baseline
 * holds: the same growth for any node, for n8n's own nodes, and for a file 4 times the size.
 */
async function download() {
	const sizeMiB = Number(process.env.BENCH_DOWNLOAD_MIB ?? 1024);
	const largerMiB = sizeMiB * 4;
	await withRealN8n(sizeMiB, async (n8n) => {
		const get = (downloadOutputs: boolean, generationId = 'gen_big') => ({
			name: 'Get',
			type: 'n8n-nodes-social-content.socialContent',
			parameters: {
				resource: 'studio',
				operation: 'getGeneration',
				generationId: { __rl: true, mode: 'id', value: generationId },
				downloadOutputs,
			},
		});
		// n8n's own HTTP Request node saving the same file: what streaming 1 GiB costs any node.
		const httpRequest = {
			name: 'HTTP',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: `${n8n.sinkUrl}/uploads/big.mp4`,
				options: { response: { response: { responseFormat: 'file' } } },
			},
		};
		// The least any node can do: n8n's request helper streaming straight into prepareBinaryData.
		const bare = {
			name: 'Bare',
			type: 'n8n-nodes-bench-floor.bareDownload',
			parameters: { url: `${n8n.sinkUrl}/uploads/big.mp4` },
		};
		// The upload row's baseline: n8n reading a file of the same size from its own disk.
		const filePath = join(n8n.files, 'big.bin');
		await promisify(execFile)('bash', ['-c', `head -c ${sizeMiB}M /dev/zero > ${filePath}`]);
		const readFile = {
			name: 'Read',
			type: 'n8n-nodes-base.readWriteFile',
			parameters: { fileSelector: filePath, options: {} },
		};
		await n8n.importWorkflows([
			chainWorkflow('benchGetOnly0000', [get(false)]),
			chainWorkflow('benchGetDownload', [get(true)]),
			chainWorkflow('benchHttpRequest', [get(false), httpRequest]),
			chainWorkflow('benchBareHelper0', [get(false), bare]),
			chainWorkflow('benchGetReadFile', [get(false), readFile]),
			chainWorkflow('benchGetDownlo4x', [get(true, `gen_big_${largerMiB}`)]),
		]);
		// One run's peak varies by ±15 MiB with when V8 happens to collect: the median of 3,
		// taken in rounds so that each round runs all of them under the same conditions.
		const peaks: Record<string, number[]> = {
			benchGetOnly0000: [],
			benchGetDownload: [],
			benchHttpRequest: [],
			benchBareHelper0: [],
			benchGetReadFile: [],
			benchGetDownlo4x: [],
		};
		for (let round = 0; round < MEMORY_ROUNDS; round++) {
			for (const id of Object.keys(peaks)) peaks[id].push(await n8n.peakMiB(id));
		}
		const getOnly = median(peaks.benchGetOnly0000);
		/** A workflow's growth over Get Generation alone: its median, and each round's. */
		const growthOf = (id: string) => ({
			median: median(peaks[id]) - getOnly,
			rounds: growthByRound(peaks[id], peaks.benchGetOnly0000),
		});
		const { served } = await n8n.sinkReport();
		const allServed = served >= (sizeMiB * 3 + largerMiB) * MEMORY_ROUNDS * 1024 * 1024;
		const node = growthOf('benchGetDownload');
		const diskRead = growthOf('benchGetReadFile');
		const httpGrowth = growthOf('benchHttpRequest');
		const bareGrowth = growthOf('benchBareHelper0');
		const larger = growthOf('benchGetDownlo4x');
		const overDiskRead = growthByRound(peaks.benchGetDownload, peaks.benchGetReadFile);
		rows.push({
			name: `download ${sizeMiB} MiB output in n8n (filesystem binary data), measured as the upload row is: peak RSS growth over a workflow bringing a file of the same size into n8n (Read/Write Files from Disk; median of ${MEMORY_ROUNDS}; rounds: ${overDiskRead})`,
			value: round(node.median - diskRead.median, 1),
			unit: 'MiB',
			baseline: round(median(peaks.benchGetReadFile), 1),
			ratio: null,
			goal: '≤ 64 MiB',
			met: node.median - diskRead.median <= 64 && allServed,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same node's growth over Get Generation alone, no file in n8n (rounds: ${node.rounds})`,
			value: round(node.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: null,
			goal: `(what moving ${sizeMiB} MiB through Node costs: see the next four rows)`,
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: n8n reading a file of the same size from its own disk, growth over the same run (rounds: ${diskRead.rounds})`,
			value: round(diskRead.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / diskRead.median, 2),
			goal: "(n8n's own floor; ratio = this node / reading from disk)",
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same file saved by n8n's HTTP Request node (Response Format: File), growth over the same run (rounds: ${httpGrowth.rounds})`,
			value: round(httpGrowth.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / httpGrowth.median, 2),
			goal: '(what any node pays; ratio = this node / HTTP Request)',
			met: true,
		});
		rows.push({
			name: `download ${sizeMiB} MiB: the same file saved by a minimal node (n8n's request helper streamed into prepareBinaryData, bench/floorNode), growth over the same run (rounds: ${bareGrowth.rounds})`,
			value: round(bareGrowth.median, 1),
			unit: 'MiB',
			baseline: round(getOnly, 1),
			ratio: round(node.median / bareGrowth.median, 2),
			goal: '(the floor for any node; ratio = this node / the floor)',
			met: true,
		});
		rows.push({
			name: `download ${largerMiB} MiB by the same node: growth over Get Generation alone (rounds: ${larger.rounds}); ratio = ${largerMiB} MiB / ${sizeMiB} MiB`,
			value: round(larger.median, 1),
			unit: 'MiB',
			baseline: round(node.median, 1),
			ratio: round(larger.median / node.median, 2),
			goal: '(streamed: the growth does not follow the size)',
			met: larger.median <= node.median * 1.25,
		});
		// What the growth is made of: the same download once more, traced from inside n8n.
		const tracePath = join(n8n.files, 'memory-trace.json');
		await n8n.peakMiB('benchGetDownload', {
			NODE_OPTIONS: `--require ${join(__dirname, 'memoryTrace.js')}`,
			BENCH_MEMORY_TRACE: tracePath,
		});
		const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as {
			highestArrayBuffersMiB: number;
			streamingMs: number;
			collectionsWhileStreaming: Record<string, number>;
		};
		const { young, full, incremental } = trace.collectionsWhileStreaming;
		rows.push({
			name: `download ${sizeMiB} MiB, traced in n8n: most network buffers waiting to be freed at once; collections while streaming (${trace.streamingMs} ms): ${young} young, ${incremental} incremental marking, ${full} full`,
			value: trace.highestArrayBuffersMiB,
			unit: 'MiB',
			baseline: null,
			ratio: null,
			goal: '(what the growth is: buffers already written out, freed only by full collections)',
			met: true,
		});
	});
}

/**
 * Per-item time in a real n8n, where a credential costs what it costs in production: 1,000 Score
 * POSTs by this node, and by n8n's HTTP Request node with a Header Auth credential and with the
 * header typed as a plain parameter. One workflow fans the same 1,000 items out to each node twice
 * (the first round warms up); each node's own execution time is read from the run data, median
 * over three runs of the workflow.
 */
async function n8nPerItem() {
	const n = Number(process.env.BENCH_N8N_ITEMS ?? 1000);
	await withRealN8n(1, async (n8n) => {
		const url = `${n8n.sinkUrl}/api/public/v1/hooks/score`;
		const httpRequest = (withCredential: boolean) => ({
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url,
				...(withCredential
					? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
					: {
							sendHeaders: true,
							headerParameters: { parameters: [{ name: 'Authorization', value: 'k' }] },
						}),
				sendBody: true,
				bodyParameters: { parameters: [{ name: 'text', value: '={{ $json.text }}' }] },
				options: {},
			},
			...(withCredential
				? { credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'header' } } }
				: {}),
		});
		const measured: Record<
			string,
			{ type: string; typeVersion: number; parameters: IDataObject; credentials?: IDataObject }
		> = {
			'this node': {
				type: 'n8n-nodes-social-content.socialContent',
				typeVersion: 1,
				parameters: { resource: 'hook', operation: 'score', text: '={{ $json.text }}' },
				credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } },
			},
			'this node, 10 concurrent': {
				type: 'n8n-nodes-social-content.socialContent',
				typeVersion: 1,
				parameters: {
					resource: 'hook',
					operation: 'score',
					text: '={{ $json.text }}',
					requestOptions: { concurrency: 10 },
				},
				credentials: { socialContentApi: { id: 'benchCred', name: 'bench' } },
			},
			'HTTP Request, Header Auth credential': httpRequest(true),
			'HTTP Request, header as a parameter': httpRequest(false),
		};
		const nodes: IDataObject[] = [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'l',
				name: 'List',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: {
					mode: 'raw',
					jsonOutput: `={{ { "texts": Array.from({ length: ${n} }, (_, i) => "hook " + i) } }}`,
					options: {},
				},
			},
			{
				id: 'x',
				name: 'Items',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'texts', options: { destinationFieldName: 'text' } },
			},
		];
		const names: string[] = [];
		for (const round of ['warm-up', 'measured']) {
			for (const [label, node] of Object.entries(measured)) {
				const name = `${label} (${round})`;
				names.push(name);
				nodes.push({
					id: String(nodes.length),
					name,
					position: [600, nodes.length * 100],
					...node,
				});
			}
		}
		const workflow = {
			id: 'benchPerItem0000',
			name: 'per item',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes,
			connections: {
				Start: { main: [[{ node: 'List', type: 'main', index: 0 }]] },
				List: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
				Items: { main: [names.map((node) => ({ node, type: 'main', index: 0 }))] },
			},
		};
		await n8n.importWorkflows([workflow]);
		const times: Record<string, number[]> = {};
		for (let run = 0; run < 3; run++) {
			const runData = await n8n.runData('benchPerItem0000');
			for (const label of Object.keys(measured)) {
				const [task] = runData[`${label} (measured)`] as Array<{
					executionTime: number;
					data: { main: unknown[][] };
				}>;
				if (task.data.main[0].length !== n)
					throw new Error(`${label}: ${task.data.main[0].length} items out of ${n}`);
				(times[label] ??= []).push(task.executionTime / n);
			}
		}
		const ms = Object.fromEntries(
			Object.entries(times).map(([label, values]) => [label, median(values)]),
		);
		const withCredential = ms['HTTP Request, Header Auth credential'];
		const plain = ms['HTTP Request, header as a parameter'];
		log(`n8n per item (ms): ${JSON.stringify(ms)}`);
		rows.push({
			name: `n8n per-item time, ${n} Score POSTs: this node vs HTTP Request with a Header Auth credential (median of 3)`,
			value: round(ms['this node'], 3),
			unit: 'ms/item',
			baseline: round(withCredential, 3),
			ratio: round(ms['this node'] / withCredential, 2),
			goal: '≤ 0.5 × HTTP Request with a credential',
			met: ms['this node'] / withCredential <= 0.5,
		});
		rows.push({
			name: `n8n per-item time, same: this node vs HTTP Request with the header as a plain parameter`,
			value: round(ms['this node'], 3),
			unit: 'ms/item',
			baseline: round(plain, 3),
			ratio: round(ms['this node'] / plain, 2),
			goal: '(the floor)',
			met: true,
		});
		rows.push({
			name: `n8n per-item time, same: this node at 10 concurrent vs HTTP Request with a Header Auth credential`,
			value: round(ms['this node, 10 concurrent'], 3),
			unit: 'ms/item',
			baseline: round(withCredential, 3),
			ratio: round(ms['this node, 10 concurrent'] / withCredential, 2),
			goal: '(for comparison)',
			met: true,
		});
	});
}

/** The rows of the last BENCHMARKS.md table. */
function previousRows(): Row[] {
	const file = join(__dirname, '..', 'BENCHMARKS.md');
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

/** The middle value (the upper middle of an even count). */
function median(values: number[]): number {
	return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function round(value: number, digits: number): number {
	return Number(value.toFixed(digits));
}

async function main() {
	const only = process.argv.slice(2);
	const suites: Record<string, () => Promise<void>> = {
		overhead,
		batch,
		squeeze,
		rise,
		longItem,
		short,
		trigger,
		triggerQuiet,
		triggerLimits,
		upload,
		download,
		n8nPerItem,
	};
	for (const [name, run] of Object.entries(suites)) {
		if (only.length && !only.includes(name)) continue;
		log(`running ${name}`);
		await run();
	}
	if (only.length) {
		// A partial run keeps the other suites' rows from the committed BENCHMARKS.md table.
		const suiteOf = (name: string) =>
			/^per-item/.test(name)
				? 'overhead'
				: /^n8n per-item/.test(name)
					? 'n8nPerItem'
					: /^trigger (state, every|poll wall)/.test(name)
						? 'triggerLimits'
						: /^trigger quiet/.test(name)
							? 'triggerQuiet'
							: /^one item/.test(name)
								? 'longItem'
								: name.split(/[ ,]/)[0];
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
	mkdirSync(join(__dirname), { recursive: true });
	writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(rows, null, 2)}\n`);
	const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
	// Sections of figures from other commands (the trigger's soak run) are kept as they are.
	const benchmarksFile = join(__dirname, '..', 'BENCHMARKS.md');
	const before = existsSync(benchmarksFile) ? readFileSync(benchmarksFile, 'utf8') : '';
	const otherSections = before.includes('\n## ') ? before.slice(before.indexOf('\n## ')) : '';
	writeFileSync(
		benchmarksFile,
		`# Benchmarks\n\nLatest \`npm run bench${only.length ? ` -- ${only.join(' ')}` : ''}\`: ${new Date().toISOString().slice(0, 10)}, on ${machine}${only.length ? ' (the other rows are kept from earlier runs, possibly on another machine)' : ''}. n8n 2.41.1 under Node 24 for the upload, download and per-item-in-n8n rows.\n\n${table}\n\nHow each is measured: see \`bench/run.cts\`. Baselines come from the same run: a raw \`fetch\` loop and n8n's bare request helper for per-item time, n8n's HTTP Request node in the same n8n for per-item time in n8n and for download memory, the limiter's allowed rate (20/s) for batches, a workflow that reads a file of the same size into n8n for upload and download memory (for the download also the same Get Generation without Download Outputs).\n${otherSections}`,
	);
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
