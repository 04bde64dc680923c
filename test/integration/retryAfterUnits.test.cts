/**
 * The unit of a 429's `retryAfter`, which the spec leaves open, through the node against the
 * sandbox: seconds (fractions, or whole with or without the standard `Retry-After` header),
 * milliseconds (with or without the header), and an hourly quota. One item at a time, so every
 * request after a 429 was sent after its answer came back: none may arrive before the wait it
 * asked has passed, in the unit it was read in.
 */
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';
import { createSandbox, type Sandbox } from '../helpers/sandbox.cjs';

interface RateLogEntry {
	at: number;
	/** For a 429: the wait it asked, in ms, in the sandbox's own unit. */
	askedMs?: number;
}

const KEY = 'sk_sandbox_demo_key';

beforeAll(() => nock.enableNetConnect('127.0.0.1'));
afterAll(() => nock.restore());

async function scoreItems(
	config: IDataObject,
	count: number,
	maxRateLimitWait = 60,
	concurrency = 1,
): Promise<{ sandbox: Sandbox; items: IDataObject[]; log: RateLogEntry[] }> {
	const sandbox = createSandbox(config);
	const url = await sandbox.listen();
	try {
		const result = await runChain(
			[
				{ name: 'Start', type: START_NODE_TYPE },
				{
					name: 'Node',
					type: ACTION_NODE_TYPE,
					parameters: {
						resource: 'hook',
						operation: 'score',
						text: '={{ $json.text }}',
						requestOptions: { concurrency, maxRateLimitWait },
					},
					credentials: { socialContentApi: { id: '1', name: 'c' } },
					onError: 'continueRegularOutput',
				},
			],
			{
				credentials: { socialContentApi: { instanceUrl: url, apiKey: KEY } },
				input: Array.from({ length: count }, (_, i) => ({ text: `hook ${i}` })),
				settings: { timezone: 'UTC' },
			},
		);
		expect(result.error).toBeUndefined();
		return {
			sandbox,
			items: result.output('Node').map((item) => item.json),
			log: sandbox.state.rateLog,
		};
	} finally {
		await sandbox.close();
	}
}

/** Requests that arrived before the wait of an earlier 429 had passed, each with the latest such 429. */
function earlyRequests(log: RateLogEntry[]): Array<[RateLogEntry, RateLogEntry]> {
	const early = new Map<RateLogEntry, RateLogEntry>();
	log.forEach((refusal, index) => {
		if (refusal.askedMs === undefined) return;
		for (const later of log.slice(index + 1))
			if (later.at < refusal.at + refusal.askedMs) early.set(later, refusal);
	});
	return [...early].map(([request, refusal]) => [refusal, request]);
}

const smallBurst = { hooks: { limit: 20, burst: 5 } };

describe('429 waits, in each unit: nothing is sent before the wait asked has passed', () => {
	test.each([
		['seconds, fractions (0.05)', { buckets: smallBurst, retryAfter: 'fraction' }],
		[
			'seconds, whole, with the Retry-After header',
			{ buckets: smallBurst, retryAfter: 'whole', retryAfterHeader: true },
		],
		['milliseconds, no header', { buckets: smallBurst, retryAfter: 'ms' }],
		[
			'milliseconds, with the Retry-After header',
			{ buckets: smallBurst, retryAfter: 'ms', retryAfterHeader: true },
		],
		[
			'milliseconds from a fixed window (up to 500 ms), no header',
			{ buckets: { hooks: { limit: 10, windowMs: 500 } }, retryAfter: 'ms' },
		],
	])('%s: every item succeeds, no request early', async (_name, config) => {
		const { items, log } = await scoreItems(config, 40);
		expect(items.filter((item) => item.error)).toEqual([]);
		expect(log.filter((entry) => entry.askedMs !== undefined).length).toBeGreaterThan(0);
		expect(earlyRequests(log)).toEqual([]);
	});

	test('seconds, whole, no header, where the true wait is short (a bucket: 0.05 s rounded up to 1): read as milliseconds, which the service accepts', async () => {
		const { items, log } = await scoreItems({ buckets: smallBurst, retryAfter: 'whole' }, 40);
		expect(items.filter((item) => item.error)).toEqual([]);
		// In the unit it was read in (1 ms, under the 50 ms floor), nothing was early.
		const asRead = log.map((entry) =>
			entry.askedMs === undefined ? entry : { ...entry, askedMs: 50 },
		);
		expect(earlyRequests(asRead)).toEqual([]);
	});

	test('seconds, whole, no header, where the true wait is long (a fixed window of 20 per second): the service keeps refusing the short readings, so the run switches to seconds (2 requests early at most), then waits them in full', async () => {
		const { items, log } = await scoreItems(
			{ buckets: { hooks: { limit: 20, windowMs: 1000, anchored: true } }, retryAfter: 'whole' },
			70,
		);
		expect(items.filter((item) => item.error)).toEqual([]);
		const early = earlyRequests(log);
		expect(early.length).toBeLessThanOrEqual(2);
		for (const [refusal, request] of early)
			expect(request.at - refusal.at).toBeGreaterThanOrEqual(45);
		expect(log.filter((entry) => entry.askedMs !== undefined).length).toBeGreaterThanOrEqual(3);
	});

	test('an hourly quota (retryAfter 3600, seconds, no header): no hammering; the item fails naming the wait, later items at once', async () => {
		const { items, log } = await scoreItems(
			{
				buckets: { hooks: { limit: 5, windowMs: 3_600_000, anchored: true } },
				retryAfter: 'whole',
			},
			8,
		);
		expect(items.slice(0, 5).filter((item) => item.error)).toEqual([]);
		for (const item of items.slice(5))
			expect(String(item.error)).toMatch(
				/Rate limited on bucket "hooks" \(limit 5\): try again in (59|60) min/,
			);
		// Item 6: 3 requests (two short readings, then seconds); items 7 and 8 are not sent: the run
		// was asked to wait an hour, and they could only be refused.
		expect(log).toHaveLength(5 + 3);
		expect(String(items[7].error)).toMatch(/Rate limited/);
	});

	test("milliseconds, no header, 10 at once: the run's own requests competing for the slot never make it read seconds (every item succeeds)", async () => {
		for (const buckets of [smallBurst, { hooks: { limit: 10, windowMs: 500 } }]) {
			const { items, log } = await scoreItems({ buckets, retryAfter: 'ms' }, 120, 5, 10);
			expect(items.filter((item) => item.error)).toEqual([]);
			// Read as seconds, a wait of 6 ms or more would pass Max Rate Limit Wait (5 s). How long the
			// service asks follows when a request lands in its window (19-49 ms at most over 19-30
			// refusals, seen): a cap of 20 s needed one over 20 ms, and a run once had none.
			expect(Math.max(...log.map((entry) => entry.askedMs ?? 0))).toBeGreaterThan(5);
		}
	});

	test('an hourly quota with the Retry-After header: 1 refused request in all; later items fail unsent, naming the wait', async () => {
		const { items, log } = await scoreItems(
			{
				buckets: { hooks: { limit: 5, windowMs: 3_600_000, anchored: true } },
				retryAfter: 'whole',
				retryAfterHeader: true,
			},
			7,
		);
		expect(items.slice(5).every((item) => /Rate limited/.test(String(item.error)))).toBe(true);
		expect(log).toHaveLength(5 + 1);
		expect(earlyRequests(log)).toEqual([]);
	});
});
