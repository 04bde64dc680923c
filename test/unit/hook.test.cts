import { API_PATH, api, NODE, runAction } from '../helpers/fixtures.cjs';

const scoreResult = {
	score: 72,
	pattern: 'curiosity gap',
	strengths: ['short'],
	fixes: ['add a number'],
	rewrite: 'Stop scrolling: 3 habits that doubled my reach',
	breakdown: { clarity: 8 },
	benchmark: { percentile: 81, estimated: true },
};

describe('Hook → Score', () => {
	test('POST /hooks/score with text only; output the score result and the text it scored', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`, { text: 'Stop scrolling' })
			.reply(200, scoreResult);
		const result = await runAction({
			resource: 'hook',
			operation: 'score',
			text: '  Stop scrolling ',
		});
		expect(result.output(NODE)).toEqual([
			{ json: { text: 'Stop scrolling', ...scoreResult }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	test('with platform from the list and an audience', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`, { text: 'Hi', platform: 'tiktok', audienceId: 'aud_1' })
			.reply(200, scoreResult);
		await runAction({
			resource: 'hook',
			operation: 'score',
			text: 'Hi',
			platform: 'tiktok',
			audienceId: 'aud_1',
		});
		scope.done();
	});

	test('with a custom platform', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`, { text: 'Hi', platform: 'pinterest' })
			.reply(200, scoreResult);
		await runAction({
			resource: 'hook',
			operation: 'score',
			text: 'Hi',
			platform: 'custom',
			customPlatform: 'pinterest',
		});
		scope.done();
	});

	test('empty text is a parameter error, nothing sent', async () => {
		const result = await runAction({ resource: 'hook', operation: 'score', text: '   ' });
		expect(result.error?.message).toBe('"Text" is empty');
		expect(result.error?.name).toBe('NodeOperationError');
	});

	test('one request per item, each with its own text (expressions)', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/score`, { text: 'one' })
			.reply(200, { score: 1 })
			.post(`${API_PATH}/hooks/score`, { text: 'two' })
			.reply(200, { score: 2 });
		const result = await runAction(
			{ resource: 'hook', operation: 'score', text: '={{ $json.hook }}' },
			{ items: [{ hook: 'one' }, { hook: 'two' }] },
		);
		expect(result.output(NODE).map((item) => [item.json.score, item.pairedItem])).toEqual([
			[1, { item: 0 }],
			[2, { item: 1 }],
		]);
		scope.done();
	});
});

describe('Hook → Generate', () => {
	test('POST /hooks/generate with nothing set sends an empty body; an array answer → one item per hook', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/generate`, (body) => Object.keys(body ?? {}).length === 0)
			.reply(200, [{ hook: 'A' }, { hook: 'B' }]);
		const result = await runAction({ resource: 'hook', operation: 'generate' });
		expect(result.output(NODE)).toEqual([
			{ json: { hook: 'A' }, pairedItem: { item: 0 } },
			{ json: { hook: 'B' }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	test('every field, and a wrapped list of strings', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/generate`, {
				topic: 'coffee',
				audienceId: 'aud_1',
				platform: 'x',
				count: 3,
			})
			.reply(200, { hooks: ['A', 'B', 'C'] });
		const result = await runAction({
			resource: 'hook',
			operation: 'generate',
			topic: 'coffee',
			audienceId: 'aud_1',
			platform: 'x',
			count: 3,
		});
		expect(result.output(NODE).map((item) => item.json)).toEqual([
			{ hook: 'A' },
			{ hook: 'B' },
			{ hook: 'C' },
		]);
		scope.done();
	});

	test('All Hooks in One Item', async () => {
		const scope = api()
			.post(`${API_PATH}/hooks/generate`)
			.reply(200, { hooks: [{ text: 'A' }, { text: 'B' }] });
		const result = await runAction({ resource: 'hook', operation: 'generate', output: 'oneItem' });
		expect(result.output(NODE)).toEqual([
			{ json: { hooks: [{ text: 'A' }, { text: 'B' }] }, pairedItem: { item: 0 } },
		]);
		scope.done();
	});

	test.each([[-1], [2.5]])('count %p is refused before sending', async (count) => {
		const result = await runAction({ resource: 'hook', operation: 'generate', count });
		expect(result.error?.message).toMatch(/^"Count" must be a whole number of 0 or more/);
	});
});
