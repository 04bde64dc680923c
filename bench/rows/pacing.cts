/**
 * The pace of Score items (and of one item of many requests) against the rate limiters the spec
 * leaves open, each beside the rate it allows: batches, a squeeze then release, a limit that
 * rises, one long item, a short run.
 */
import type { IDataObject } from 'n8n-workflow';

import { log, round, rows, runNode, withSandbox, type Suite } from '../harness.cjs';

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

export const suites: Suite[] = [
	{ name: 'batch', run: batch },
	{ name: 'squeeze', run: squeeze },
	{ name: 'rise', run: rise },
	{ name: 'longItem', run: longItem, owns: /^one item/ },
	{ name: 'short', run: short },
];
