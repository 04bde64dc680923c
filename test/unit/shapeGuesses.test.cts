/**
 * Every shape in test/helpers/shapeGuesses.cts, driven through the node: the spec leaves these open,
 * so each plausible form must give the same output.
 */
import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import type { INodeExecutionData, NodeApiError } from 'n8n-workflow';

import {
	ANSWER_SHAPES,
	CHANNEL_SHAPES,
	ERROR_SHAPES,
	FORMAT_INPUT_SHAPES,
	FORMAT_SHAPES,
	GENERATION_SHAPES,
	LIST_SHAPES,
	PAGE_SHAPES,
	POST_RECORD_SHAPES,
	type PostFacts,
} from '../helpers/shapeGuesses.cjs';
import {
	API_PATH,
	api,
	apiKeyCredentials,
	editorContext,
	NODE,
	runAction,
} from '../helpers/fixtures.cjs';
import {
	ACTION_NODE_TYPE,
	loadOptionsContextFor,
	poll,
	triggerWorkflow,
} from '../helpers/harness.cjs';

const listCases = Object.entries(LIST_SHAPES.shapes);
const pageCases = Object.entries(PAGE_SHAPES.shapes);

describe(`list answers (${LIST_SHAPES.spec.length} "not shown" in the spec)`, () => {
	test.each(listCases)('Studio → Get Many Generations answering %s', async (_shape, wrap) => {
		const scope = api()
			.get(`${API_PATH}/studio/generations`)
			.reply(200, wrap([{ id: 'gen_a' }, { id: 'gen_b' }], 'generations') as object);
		const result = await runAction({
			resource: 'studio',
			operation: 'listGenerations',
			returnAll: true,
		});
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['gen_a', 'gen_b']);
		scope.done();
	});

	test.each(listCases)('Media → List answering %s', async (_shape, wrap) => {
		const scope = api()
			.get(`${API_PATH}/media`)
			.reply(200, wrap([{ id: 'med_a' }, { id: 'med_b' }], 'media') as object);
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['med_a', 'med_b']);
		scope.done();
	});
});

describe('paged answers: Return All follows every page, Limit stops early', () => {
	test.each(pageCases)('Media → List, pages as %s', async (_shape, page) => {
		const scope = api()
			.get(`${API_PATH}/media`)
			.reply(200, page([{ id: 'a' }], 1, 3) as object)
			.get(`${API_PATH}/media`)
			.query({ page: 2 })
			.reply(200, page([{ id: 'b' }], 2, 3) as object)
			.get(`${API_PATH}/media`)
			.query({ page: 3 })
			.reply(200, page([{ id: 'c' }], 3, 3) as object);
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b', 'c']);
		scope.done();
	});

	test.each(pageCases)(
		'Media → List with Limit 1, pages as %s: one request',
		async (_shape, page) => {
			const scope = api()
				.get(`${API_PATH}/media`)
				.reply(200, page([{ id: 'a' }, { id: 'b' }], 1, 3) as object);
			const result = await runAction({
				resource: 'media',
				operation: 'list',
				returnAll: false,
				limit: 1,
			});
			expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a']);
			scope.done();
		},
	);
});

describe('paging the service gets wrong or does its own way', () => {
	test('a list that says there is more but ignores the page parameter: read twice, given once', async () => {
		let requests = 0;
		api()
			.persist()
			.get(`${API_PATH}/media`)
			.query(true)
			.reply(200, () => {
				requests++;
				return { pages: 1000, results: [{ id: 'a' }, { id: 'b' }] };
			});
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b']);
		expect(requests).toBe(2);
	});

	test('a cursor ({ data, nextCursor }) is followed as ?cursor=, until there is none', async () => {
		const scope = api()
			.get(`${API_PATH}/media`)
			.reply(200, { data: [{ id: 'a' }], nextCursor: 'c2' })
			.get(`${API_PATH}/media`)
			.query({ cursor: 'c2' })
			.reply(200, { data: [{ id: 'b' }], nextCursor: 'c3' })
			.get(`${API_PATH}/media`)
			.query({ cursor: 'c3' })
			// The last page: nextCursor null, even beside the page's own cursor, ends the list.
			.reply(200, { data: [{ id: 'c' }], nextCursor: null, cursor: 'c3' });
		const result = await runAction({ resource: 'media', operation: 'list', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b', 'c']);
		scope.done();
	});
});

describe('format records: every id name × price name × price form × container gives id and price', () => {
	// A map keys records by id, so there the record names no id of its own.
	const cases = Object.entries(FORMAT_SHAPES.containers).flatMap(([container, contain]) =>
		(container === 'a map of id → record' ? ['(the key)'] : FORMAT_SHAPES.idNames).flatMap(
			(idName) =>
				FORMAT_SHAPES.priceNames.flatMap((priceName) =>
					FORMAT_SHAPES.priceValues.map(
						(priceValue) =>
							[
								`${container}, ${idName}, ${priceName}: ${JSON.stringify(priceValue)}`,
								contain,
								idName,
								priceName,
								priceValue,
							] as const,
					),
				),
		),
	);

	test.each(cases)('%s', async (_name, contain, idName, priceName, priceValue) => {
		const record = {
			[idName === '(the key)' ? 'id' : idName]: 'image_fast',
			[priceName]: priceValue,
		};
		const scope = api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, contain([record]) as object);
		const result = await runAction({ resource: 'studio', operation: 'listFormats' });
		expect(result.output(NODE)[0].json).toMatchObject({ id: 'image_fast', price: 3 });
		scope.done();
	});
});

describe('format inputs: every shape gives the same fields in Start Generation', () => {
	const node = new SocialContent();
	test.each(Object.entries(FORMAT_INPUT_SHAPES.shapes))('%s', async (shape, inputs) => {
		api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, [{ id: 'video_clip', inputs }]);
		const context = loadOptionsContextFor(
			ACTION_NODE_TYPE,
			{
				authentication: 'apiKey',
				resource: 'studio',
				operation: 'startGeneration',
				format: { __rl: true, mode: 'id', value: 'video_clip' },
			},
			apiKeyCredentials,
			{ socialContentApi: { id: '1', name: 'c' } },
		);
		const { fields } = await node.methods.resourceMapping.getFormatInputs.call(context);
		expect(fields.map(({ id, displayName }) => [id, displayName])).toEqual([
			['prompt', 'Prompt'],
			['seconds', 'Seconds'],
		]);
		const saysMore = !/names|comma|→ type/.test(shape);
		expect(fields.map((field) => field.required)).toEqual(
			saysMore ? [true, false] : [false, false],
		);
		// A list of names says no type: the field is untyped (its text is read as typed).
		expect(fields[1].type).toBe(/names|comma/.test(shape) ? undefined : 'number');
	});
});

describe('post records: every shape gives the same trigger item (Fetch Test Event) and picker label', () => {
	const channel = { id: 'ch_x', name: 'Acme on X', identifier: 'x' };
	const dateMs = Date.parse('2026-11-20T10:00:00.000Z');
	const posts: PostFacts[] = [
		{
			id: 'p_out',
			status: 'published',
			content: 'Launch day',
			dateMs,
			channel,
			url: 'https://x.com/acme/status/1',
			publishedMs: dateMs,
		},
		{
			id: 'p_failed',
			status: 'failed',
			content: 'Second',
			dateMs: dateMs - 60_000,
			channel,
			error: 'duplicate content',
		},
	];
	test.each(
		Object.entries(POST_RECORD_SHAPES.shapes) as Array<[string, (post: PostFacts) => object]>,
	)('%s', async (_shape, record) => {
		api()
			.get(`${API_PATH}/posts`)
			.query(true)
			.times(2)
			.reply(200, { posts: posts.map((post) => record(post)) });
		// Both polls below look the channel up (a post names it by id alone).
		api().get(`${API_PATH}/integrations`).times(2).reply(200, [channel]);
		const published = await poll(
			triggerWorkflow({ events: ['postPublished'] }),
			apiKeyCredentials,
			'manual',
		);
		expect(published?.[0][0].json).toMatchObject({
			id: 'p_out',
			state: 'published',
			channel: { id: 'ch_x', name: 'Acme on X', network: 'x' },
			date: '2026-11-20T10:00:00.000Z',
			url: 'https://x.com/acme/status/1',
			text: 'Launch day',
		});
		const failed = await poll(
			triggerWorkflow({ events: ['postFailed'] }),
			apiKeyCredentials,
			'manual',
		);
		expect(failed?.[0][0].json).toMatchObject({ id: 'p_failed', state: 'failed', url: null });
	});
});

describe('generation records: every shape gives the same item and picker label', () => {
	const facts = {
		id: 'gen_7',
		format: 'slideshow',
		path: '/uploads/gen_7/slide-1.png',
		finishedMs: Date.parse('2026-11-20T10:00:00.000Z'),
	};
	test.each(Object.entries(GENERATION_SHAPES.shapes))('%s', async (_shape, record) => {
		const scope = api().get(`${API_PATH}/studio/generations/gen_7`).reply(200, record(facts));
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: { __rl: true, mode: 'id', value: 'gen_7' },
			downloadOutputs: false,
		});
		expect(result.output(NODE)[0].json).toMatchObject({
			id: 'gen_7',
			status: 'done',
			format: 'slideshow',
			outputs: [{ path: '/uploads/gen_7/slide-1.png' }],
		});
		scope.done();

		// The finish time, under whichever name and unit, is the time the picker shows.
		api()
			.get(`${API_PATH}/studio/generations`)
			.reply(200, [record(facts)])
			.get(`${API_PATH}/studio/formats`)
			.reply(200, [{ id: 'slideshow', name: 'Slideshow' }]);
		const found = await new SocialContent().methods.listSearch.searchGenerations.call(
			editorContext({}, 'Europe/Berlin'),
		);
		expect(found.results).toEqual([
			{ name: 'Slideshow · done · 20 Nov 2026 11:00 CET · gen_7', value: 'gen_7' },
		]);
	});
});

describe('channel records: every shape names its network in the dropdowns', () => {
	test.each(Object.entries(CHANNEL_SHAPES.shapes))('%s', async (_shape, record) => {
		api().get(`${API_PATH}/integrations`).reply(200, [record]);
		const options = await new SocialContent().methods.loadOptions.getChannels.call(editorContext());
		expect(options).toEqual([{ name: 'Acme · X', value: 'ch_x' }]);
	});
});

describe('answers of one value: every shape means the same', () => {
	const { connectUrl, isConnected, credits, hooks } = ANSWER_SHAPES;
	const operations = [
		{
			label: 'Channel → Get Connect URL',
			answers: connectUrl,
			request: ['GET', '/social/x'],
			parameters: { resource: 'channel', operation: 'getConnectUrl', provider: 'x' },
			read: (items: INodeExecutionData[]) => items[0].json.url,
		},
		{
			label: 'Channel → Is Connected',
			answers: isConnected,
			request: ['GET', '/is-connected'],
			parameters: { resource: 'channel', operation: 'isConnected' },
			read: (items: INodeExecutionData[]) => items[0].json.connected,
		},
		{
			label: 'Studio → Get Credits',
			answers: credits,
			request: ['GET', '/credits'],
			parameters: { resource: 'studio', operation: 'getCredits' },
			read: (items: INodeExecutionData[]) => items[0].json.credits,
		},
		{
			label: 'Hook → Generate',
			answers: hooks,
			request: ['POST', '/hooks/generate'],
			parameters: { resource: 'hook', operation: 'generate', topic: 'launch' },
			read: (items: INodeExecutionData[]) => items.map((item) => item.json.hook),
		},
	];
	const cases = operations.flatMap((operation) =>
		Object.entries(operation.answers.shapes).map(
			([shape, body]) => [operation.label, shape, operation, body] as const,
		),
	);
	test.each(cases)('%s answering %s', async (_label, _shape, operation, body) => {
		const [method, path] = operation.request;
		const scope = api()
			.intercept(`${API_PATH}${path}`, method)
			.reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction(operation.parameters);
		expect(operation.read(result.output(NODE))).toEqual(operation.answers.means);
		scope.done();
	});
});

describe('400 bodies: every shape of field errors is listed in the error', () => {
	test.each(Object.entries(ERROR_SHAPES.shapes))('%s', async (_shape, body) => {
		api()
			.post(`${API_PATH}/hooks/generate`)
			.reply(400, body as object);
		const result = await runAction({ resource: 'hook', operation: 'generate', topic: 'launch' });
		const error = result.error as NodeApiError;
		for (const line of ERROR_SHAPES.means) expect(error.message).toContain(line);
		expect(error.description).toBe(
			`Fix these fields and run again:\n${ERROR_SHAPES.means.map((line) => `- ${line}`).join('\n')}`,
		);
	});
});
