import nock from 'nock';

import { clockNow } from '../helpers/clock.cjs';
import { API_PATH, api, NODE, probe, runAction, startGeneration } from '../helpers/fixtures.cjs';
import { PACKAGE, registerNodeType } from '../helpers/harness.cjs';
import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { TOOL_CALL_BOUND_MS } from '../../nodes/SocialContent/actions/fields/parameters';
import { RequestPacer } from '../../nodes/shared/transport/pacing';

const PING = `${API_PATH}/agents/ping`;

describe('per-item loop, pairing and errors', () => {
	test('one output item per input item, each paired with its input', async () => {
		const scope = api().get(PING).times(3).reply(200, { ok: true });
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ items: [{}, {}, {}] },
		);
		expect(result.output(NODE)).toEqual(
			[0, 1, 2].map((item) => ({ json: { ok: true }, pairedItem: { item } })),
		);
		scope.done();
	});

	test('without continueOnFail, the first failure stops the node and names the item', async () => {
		api().get(PING).reply(200, { ok: true }).get(PING).reply(401, {});
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ items: [{}, {}, {}] },
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe('401');
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
	});

	test('the run tells its pacer how many items it has and when each is through, a failed one too (a faster pace is weighed against what is left)', async () => {
		const expectItems = jest.spyOn(RequestPacer.prototype, 'expectItems');
		const itemDone = jest.spyOn(RequestPacer.prototype, 'itemDone');
		try {
			api().get(PING).reply(200, { ok: true }).get(PING).reply(402, {}).get(PING).reply(200, {});
			const result = await runAction(
				{ resource: 'account', operation: 'checkConnection' },
				{ items: [{}, {}, {}], onError: 'continueRegularOutput' },
			);
			expect(result.output(NODE)).toHaveLength(3);
			expect(expectItems.mock.calls).toEqual([[3]]);
			expect(itemDone).toHaveBeenCalledTimes(3);
		} finally {
			expectItems.mockRestore();
			itemDone.mockRestore();
		}
	});

	test('continueOnFail (continueRegularOutput): failed items become error items in place', async () => {
		api()
			.get(PING)
			.reply(200, { ok: true })
			.get(PING)
			.reply(402, {})
			.get(PING)
			.reply(200, { ok: true });
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ items: [{}, {}, {}], onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		const items = result.output(NODE);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toEqual({ ok: true });
		expect(items[1].json).toEqual({
			error: 'Not enough credits for this request. Nothing was reserved or charged',
		});
		expect(items[1].error?.description).toContain('Add credits');
		expect(items[2].json).toEqual({ ok: true });
	});

	test("error output: a failed generation's item, which keeps its generationId, goes to the second output too", async () => {
		api()
			.post(`${API_PATH}/studio/generations`)
			.reply(200, { id: 'gen_f', status: 'queued' })
			.get(`${API_PATH}/studio/generations/gen_f`)
			.reply(200, { id: 'gen_f', status: 'failed', error: 'bad prompt' });
		const result = await runAction(
			startGeneration(
				'image_fast',
				{ prompt: 'x' },
				{ waitForCompletion: true, pollInterval: 0.1 },
			),
			{
				onError: 'continueErrorOutput',
			},
		);
		expect(result.output(NODE, 0)).toEqual([]);
		expect(result.output(NODE, 1).map((item) => item.json)).toEqual([
			{
				error: 'Generation gen_f failed: bad prompt',
				details: { generationId: 'gen_f', description: expect.any(String) },
			},
		]);
	});

	test('error output (continueErrorOutput): failed items go to the second output', async () => {
		api().get(PING).reply(200, { ok: true }).get(PING).reply(503, {});
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ items: [{ n: 1 }, { n: 2 }], onError: 'continueErrorOutput' },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toEqual([{ json: { ok: true }, pairedItem: { item: 0 } }]);
		const errors = result.output(NODE, 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].json.error).toBe('This feature is not configured on this instance (503)');
		expect(errors[0].pairedItem).toEqual({ item: 1 });
	});

	test('a failure in a probe request carries its item index too', async () => {
		api().get(PING).reply(400, { msg: 'nope' });
		const result = await probe({ path: '/agents/ping' }, { items: [{}] });
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
	});

	test('an unknown operation is a clear NodeOperationError', async () => {
		const result = await runAction({ resource: 'account', operation: 'explode' });
		expect(result.error?.message).toBe('The operation "explode" of "account" is not supported');
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('Concurrent Requests: several in flight, output in input order, each paired', async () => {
		let inFlight = 0;
		let most = 0;
		api()
			.post(`${API_PATH}/hooks/score`)
			.times(12)
			.reply(async (_uri, body) => {
				inFlight++;
				most = Math.max(most, inFlight);
				const { text } = body as { text: string };
				// Later items answer sooner, so completion order is not input order.
				await new Promise((resolve) => setTimeout(resolve, 60 - Number(text) * 4));
				inFlight--;
				return [200, { text }];
			});
		const result = await runAction(
			{
				resource: 'hook',
				operation: 'score',
				text: '={{ $json.n }}',
				requestOptions: { concurrency: 4 },
			},
			{ items: Array.from({ length: 12 }, (_, n) => ({ n: String(n) })) },
		);
		expect(result.output(NODE).map((item) => [item.json.text, item.pairedItem])).toEqual(
			Array.from({ length: 12 }, (_, n) => [String(n), { item: n }]),
		);
		expect(most).toBe(4);
	});

	test('a 429 on one request holds back the others of the run until the wait is over', async () => {
		const sentAt: number[] = [];
		let limitedAt = 0;
		let first = true;
		api()
			.post(`${API_PATH}/hooks/score`)
			.times(20)
			.delay(50)
			.reply(() => {
				const now = clockNow();
				if (first) {
					first = false;
					limitedAt = now;
					return [429, { code: 'RATE_LIMITED', bucket: 'hooks', limit: 20, retryAfter: 0.3 }];
				}
				sentAt.push(now);
				return [200, { score: 1 }];
			});
		const result = await runAction(
			{ resource: 'hook', operation: 'score', text: 'x', requestOptions: { concurrency: 2 } },
			{ items: Array.from({ length: 6 }, () => ({})) },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toHaveLength(6);
		// Only the request already in flight with the limited one went out during the wait.
		expect(sentAt.filter((at) => at > limitedAt + 20 && at < limitedAt + 290)).toEqual([]);
		expect(sentAt.filter((at) => at >= limitedAt + 290)).toHaveLength(5);
	});

	test('a create that fails mid-batch names what the run already created, and sends nothing again', async () => {
		let n = 0;
		const scope = api()
			.post(`${API_PATH}/studio/generations`)
			.times(5)
			.delay(20)
			.reply(() => {
				n++;
				return n === 3
					? [400, { msg: 'input.hook: too long' }]
					: [200, { id: `gen_${n}`, status: 'queued', credits: 1 }];
			});
		const result = await runAction(
			startGeneration('wall_of_text', { hook: 'x' }, { requestOptions: { concurrency: 2 } }),
			{ items: Array.from({ length: 5 }, () => ({})) },
		);
		const error = result.error as {
			message: string;
			description?: string;
			context?: { createdIds?: string[] };
		};
		expect(error.message).toBe('The service rejected the request: input.hook: too long');
		// Items 0 and 1 were done, item 3 was in flight beside the failed item 2; item 4 was never sent.
		expect(error.context?.createdIds).toEqual(['item 0: gen_1', 'item 1: gen_2', 'item 3: gen_4']);
		expect(error.description).toContain(
			'Already created by this run before it stopped (3; running the node again creates them again): item 0: gen_1, item 1: gen_2, item 3: gen_4.',
		);
		expect(error.description).toContain('do not use "Retry On Fail" here');
		expect(n).toBe(4);
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
	});

	test('a read that fails mid-batch does not list anything as created', async () => {
		api().get(PING).reply(200, { id: 'x', ok: true }).get(PING).reply(401, {});
		const result = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ items: [{}, {}] },
		);
		expect((result.error as { description?: string }).description).not.toContain('Already created');
	});
});

describe('as an AI agent tool (#41)', () => {
	const TOOL_TYPE = `${PACKAGE}.socialContentTool`;
	registerNodeType(TOOL_TYPE, new SocialContent());

	test('an empty list reaches the model as an item saying nothing was found; in a workflow, no items', async () => {
		const empty = () => api().get(`${API_PATH}/integrations`).reply(200, []);
		empty();
		const asTool = await runAction(
			{ resource: 'channel', operation: 'list' },
			{ nodeType: TOOL_TYPE },
		);
		expect(asTool.output(NODE).map((item) => item.json)).toEqual([
			{ found: 0, message: 'Nothing was found: the service answered with an empty list' },
		]);
		empty();
		const inWorkflow = await runAction({ resource: 'channel', operation: 'list' });
		expect(inWorkflow.output(NODE)).toEqual([]);
	});

	test('every operation keeps the call bound (#68): a 429 asking 55 s is refused at once, saying when to call again; in a workflow it is waited out', async () => {
		const limited = () =>
			api()
				.get(PING)
				.reply(429, { retryAfter: 55 }, { 'Retry-After': '55' })
				.get(PING)
				.reply(200, { ok: true });
		const scope = limited();
		const before = clockNow();
		const asTool = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ nodeType: TOOL_TYPE },
		);
		expect(clockNow() - before).toBeLessThan(TOOL_CALL_BOUND_MS);
		expect(asTool.error?.message).toBe('Rate limited: try again in 55 s');
		expect((asTool.error as { description?: string }).description).toBe(
			'The service asks to wait 55 s: that passes what is left of this tool call (40 s at most, for its caller gives up), so it was not sent again. Nothing was done: make the same call again in 55 s.',
		);
		expect(scope.isDone()).toBe(false);
		nock.cleanAll();
		limited();
		const inWorkflow = await runAction({ resource: 'account', operation: 'checkConnection' });
		expect(inWorkflow.output(NODE).map((item) => item.json)).toEqual([{ ok: true }]);
	});

	test('a read that gets no answer before the call bound (after a 429 of 38 s) fails at the bound, saying so, instead of its 120 s Timeout', async () => {
		api()
			.get(PING)
			.reply(429, { retryAfter: 38 }, { 'Retry-After': '38' })
			.get(PING)
			.times(3)
			.reply(async () => await new Promise<[number, object]>(() => undefined));
		const before = clockNow();
		const asTool = await runAction(
			{ resource: 'account', operation: 'checkConnection' },
			{ nodeType: TOOL_TYPE },
		);
		expect(clockNow() - before).toBeLessThanOrEqual(TOOL_CALL_BOUND_MS + 1000);
		expect(asTool.error?.message).toBe(
			'app.example.com did not answer within what was left of this call (40 s at most)',
		);
		expect((asTool.error as { description?: string }).description).toMatch(
			/It was tried 1 time\. A tool call answers within its bound, since its caller gives up soon after: make the call again\.$/,
		);
		nock.cleanAll();
	});
});
