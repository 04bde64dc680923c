/**
 * Rate limits through the sandbox, in each shape the spec leaves open (a token bucket with a full
 * or a small burst, a fixed or a sliding window; `retryAfter` in fractions or whole seconds): what
 * the sandbox answers, and that a batch paces itself to it. Speed is measured in `npm run bench`
 * (batch rows), not asserted here.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { ACTION_NODE_TYPE, runChain, START_NODE_TYPE } from '../helpers/harness.cjs';
import { createSandbox } from '../helpers/sandbox.cjs';

const KEY = 'sk_sandbox_demo_key';
const shapes: Array<[string, IDataObject, (retryAfter: number) => boolean]> = [
	[
		'token bucket, fractions',
		{ buckets: { hooks: { limit: 20 } }, retryAfter: 'fraction' },
		(r) => r > 0 && r < 1,
	],
	[
		'token bucket, whole seconds',
		{ buckets: { hooks: { limit: 20 } }, retryAfter: 'whole' },
		(r) => Number.isInteger(r) && r >= 1,
	],
	[
		'fixed window 10/500 ms, fractions',
		{ buckets: { hooks: { limit: 10, windowMs: 500 } }, retryAfter: 'fraction' },
		(r) => r > 0 && r <= 0.5,
	],
	[
		'fixed window 10/500 ms, whole seconds',
		{ buckets: { hooks: { limit: 10, windowMs: 500 } }, retryAfter: 'whole' },
		(r) => r === 1,
	],
	[
		'token bucket 20/s with a burst of 5, whole seconds',
		{ buckets: { hooks: { limit: 20, burst: 5 } }, retryAfter: 'whole' },
		(r) => r === 1,
	],
	[
		'sliding window 10/500 ms, fractions',
		{ buckets: { hooks: { limit: 10, windowMs: 500, sliding: true } }, retryAfter: 'fraction' },
		(r) => r > 0 && r <= 0.5,
	],
	[
		'sliding window 10/500 ms, whole seconds',
		{ buckets: { hooks: { limit: 10, windowMs: 500, sliding: true } }, retryAfter: 'whole' },
		(r) => r === 1,
	],
];

beforeAll(() => nock.enableNetConnect('127.0.0.1'));
afterAll(() => nock.restore());

describe.each(shapes)('sandbox rate limit: %s', (name, config, plausibleRetryAfter) => {
	test('a burst is refused with { code, bucket, limit, retryAfter } in this unit', async () => {
		const sandbox = createSandbox(config);
		const url = await sandbox.listen();
		try {
			// Bursts of 30 at once until one is refused: a loaded machine sends them slower than the
			// bucket refills, so how many it takes is not asserted, only what a refusal says.
			const refused: Array<{ status: number; body: IDataObject }> = [];
			for (let burst = 0; burst < 20 && !refused.length; burst++) {
				const answers = await Promise.all(
					Array.from({ length: 30 }, async () => {
						const response = await fetch(`${url}/api/public/v1/hooks/score`, {
							method: 'POST',
							headers: { Authorization: KEY, 'Content-Type': 'application/json' },
							body: JSON.stringify({ text: 'x' }),
						});
						return { status: response.status, body: (await response.json()) as IDataObject };
					}),
				);
				refused.push(...answers.filter((answer) => answer.status === 429));
			}
			expect(refused.length).toBeGreaterThan(0);
			for (const { body } of refused) {
				expect(body).toMatchObject({
					code: 'RATE_LIMITED',
					bucket: 'hooks',
					limit: (config.buckets as { hooks: { limit: number } }).hooks.limit,
				});
				expect(plausibleRetryAfter(Number(body.retryAfter))).toBe(true);
			}
		} finally {
			await sandbox.close();
		}
	});

	test('60 Score items at 4 concurrent: every item succeeds, and the run paces itself (few 429s)', async () => {
		const sandbox = createSandbox(config);
		const url = await sandbox.listen();
		try {
			const credentials: Record<string, ICredentialDataDecryptedObject> = {
				socialContentApi: { instanceUrl: url, apiKey: KEY },
			};
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
							requestOptions: { concurrency: 4 },
						},
						credentials: { socialContentApi: { id: '1', name: 'c' } },
					},
				],
				{
					credentials,
					input: Array.from({ length: 60 }, (_, i) => ({ text: `hook ${i}` })),
					settings: { timezone: 'UTC' },
				},
			);
			expect(result.error).toBeUndefined();
			expect(result.output('Node')).toHaveLength(60);
			const { rateLimited, byRoute } = sandbox.state.counts;
			expect((byRoute as Record<string, number>)['POST /hooks/score']).toBe(60 + rateLimited);
			// The first cycles refuse at most the requests in flight (4 each), probing a few more
			// (4–9 measured). Without a learned pace (each 429 only pauses the run) the bucket with
			// fractions drew 109 and the windows 20; with slots kept through a pause, 20. Whole
			// seconds with no header add the unit's discovery (read as ms until a request is refused
			// 3 times in a row): up to 2 more per request in flight, 8 at 4 concurrent. A token bucket
			// refills between requests, so how many its first cycles refuse follows the machine's
			// pace (19 seen once in a full run): 24, still far below the 109 of no learned pace.
			const bucket = name.startsWith('token bucket');
			expect(rateLimited).toBeLessThanOrEqual(config.retryAfter === 'whole' || bucket ? 24 : 16);
		} finally {
			await sandbox.close();
		}
	});
});
