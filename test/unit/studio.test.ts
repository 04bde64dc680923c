import type { INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { API_PATH, api, NODE, runAction } from '../helpers/fixtures';

const GEN = `${API_PATH}/studio/generations`;
const formats = [
	{ id: 'wall_of_text', name: 'Wall of text', inputs: ['hook'], credits: 2 },
	{ id: 'slideshow', name: 'Slideshow', inputs: ['hook', 'slides'], credits: 10 },
];
const doneGeneration = {
	id: 'gen_1',
	status: 'done',
	format: 'slideshow',
	outputs: [
		{ id: 'med_1', path: '/uploads/gen_1/slide-1.png' },
		{ id: 'med_2', path: 'https://cdn.example.net/gen_1/slide-2.png' },
	],
};
const format = (value: string) => ({ __rl: true, mode: 'list', value });

describe('Studio → List Formats', () => {
	test.each([
		['an array', formats],
		['a wrapper', { formats }],
	])('GET /studio/formats answering %s → one item per format with id, name, price', async (_shape, body) => {
		const scope = api().get(`${API_PATH}/studio/formats`).reply(200, body);
		const result = await runAction({ resource: 'studio', operation: 'listFormats' });
		expect(result.output(NODE).map((item) => item.json)).toEqual([
			{ ...formats[0], price: 2 },
			{ ...formats[1], price: 10 },
		]);
		scope.done();
	});

	test('a map of id → record, with the price under another name', async () => {
		api().get(`${API_PATH}/studio/formats`).reply(200, { image_fast: { label: 'Fast image', price: '1' } });
		const result = await runAction({ resource: 'studio', operation: 'listFormats' });
		expect(result.output(NODE)[0].json).toMatchObject({ id: 'image_fast', name: 'Fast image', price: 1 });
	});
});

describe('Studio → Start Generation', () => {
	test('POST /studio/generations with formatId and input; returns id, status, credits', async () => {
		const scope = api()
			.post(GEN, { formatId: 'wall_of_text', input: { hook: 'Stop scrolling', lines: 12, dark: true } })
			.reply(200, { id: 'gen_9', status: 'queued', credits: 2 });
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: format('wall_of_text'),
			hook: 'Stop scrolling',
			otherInputs: { input: [{ name: 'lines', value: '12' }] },
			inputJson: '{"dark": true}',
		});
		expect(result.output(NODE)[0].json).toEqual({ id: 'gen_9', status: 'queued', credits: 2, format: undefined, outputs: [] });
		scope.done();
	});

	test('Max Credits: refuses before starting when the format costs more', async () => {
		api().get(`${API_PATH}/studio/formats`).reply(200, formats);
		const start = api().post(GEN).reply(200, { id: 'never' });
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: format('slideshow'),
			hook: 'x',
			options: { maxCredits: 5 },
		});
		expect(result.error?.message).toBe('Format "slideshow" costs 10 credits, more than Max Credits (5)');
		expect(start.isDone()).toBe(false);
	});

	test('Max Credits: starts when the price is within it', async () => {
		const scope = api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, formats)
			.post(GEN)
			.reply(200, { id: 'gen_2', status: 'queued', credits: 2 });
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: format('wall_of_text'),
			hook: 'x',
			options: { maxCredits: 5 },
		});
		expect(result.output(NODE)[0].json.id).toBe('gen_2');
		scope.done();
	});

	test('Wait for Completion + Download Outputs: polls until done, attaches output_0 and output_1', async () => {
		const scope = api()
			.post(GEN)
			.reply(200, { id: 'gen_1', status: 'queued', credits: 10 })
			.get(`${GEN}/gen_1`)
			.reply(200, { id: 'gen_1', status: 'queued' })
			.get(`${GEN}/gen_1`)
			.reply(200, { id: 'gen_1', status: 'running' })
			.get(`${GEN}/gen_1`)
			.reply(200, doneGeneration)
			.get('/uploads/gen_1/slide-1.png')
			.reply(200, Buffer.from('png-one'), { 'Content-Type': 'image/png' });
		// Another host: the file is fetched without the credential.
		const cdn = nock('https://cdn.example.net', { badheaders: ['authorization'] })
			.get('/gen_1/slide-2.png')
			.reply(200, Buffer.from('png-two'), { 'Content-Type': 'image/png' });
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: format('slideshow'),
			hook: 'x',
			options: { waitForCompletion: true, downloadOutputs: true, pollInterval: 0.1 },
		});
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ id: 'gen_1', status: 'done', credits: 10 });
		expect(Object.keys(item.binary ?? {})).toEqual(['output_0', 'output_1']);
		expect(item.binary?.output_0).toMatchObject({ mimeType: 'image/png', fileName: 'slide-1.png' });
		expect(Buffer.from(item.binary!.output_0.data, 'base64').toString()).toBe('png-one');
		expect(Buffer.from(item.binary!.output_1.data, 'base64').toString()).toBe('png-two');
		scope.done();
		cdn.done();
	});

	test('a failed generation is an error naming it; continueOnFail keeps the item', async () => {
		api()
			.post(GEN)
			.reply(200, { id: 'gen_f', status: 'queued', credits: 2 })
			.get(`${GEN}/gen_f`)
			.reply(200, { id: 'gen_f', status: 'failed', error: 'model overloaded' });
		const result = await runAction(
			{
				resource: 'studio',
				operation: 'startGeneration',
				format: format('wall_of_text'),
				hook: 'x',
				options: { waitForCompletion: true, pollInterval: 0.1 },
			},
			{ onError: 'continueRegularOutput' },
		);
		expect(result.output(NODE)[0].json).toEqual({ error: 'Generation gen_f failed: model overloaded' });
	});

	/** POST /studio/generations answering `id` as queued, counting starts: a second one would be a bug. */
	function countStarts(id: string) {
		const counted = { starts: 0 };
		const scope = api()
			.post(GEN)
			.times(2)
			.reply(() => {
				counted.starts++;
				return [200, { id, status: 'queued', credits: 2 }];
			});
		return { counted, scope };
	}
	const startWallOfText = async (options: INodeParameters) =>
		await runAction({ resource: 'studio', operation: 'startGeneration', format: format('wall_of_text'), hook: 'x', options });

	test('timeout: the error names the generation id; it is not started again', async () => {
		const { counted, scope } = countStarts('gen_slow');
		scope.get(`${GEN}/gen_slow`).times(100).reply(200, { id: 'gen_slow', status: 'running' });
		const result = await startWallOfText({ waitForCompletion: true, pollInterval: 0.1, timeout: 0.005 });
		expect(result.error?.message).toBe('Generation gen_slow did not finish in time (still running)');
		expect((result.error as { description?: string }).description).toContain('gen_slow');
		expect(counted.starts).toBe(1);
	});

	test('Download Outputs alone waits for the generation and attaches its files', async () => {
		api()
			.post(GEN)
			.reply(200, { id: 'gen_1', status: 'queued', credits: 1 })
			.get(`${GEN}/gen_1`)
			.reply(200, { id: 'gen_1', status: 'done', outputs: [{ id: 'med_1', path: '/uploads/gen_1-1.png' }] })
			.get('/uploads/gen_1-1.png')
			.reply(200, Buffer.from('png'), { 'Content-Type': 'image/png' });
		const result = await startWallOfText({ downloadOutputs: true, pollInterval: 0.1 });
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ id: 'gen_1', status: 'done' });
		expect(Buffer.from(item.binary!.output_0.data, 'base64').toString()).toBe('png');
	});

	test('a failed check while waiting says the generation was started, its id, and where to look', async () => {
		const { counted, scope } = countStarts('gen_7');
		scope.get(`${GEN}/gen_7`).reply(403, { msg: 'forbidden' });
		const result = await startWallOfText({ waitForCompletion: true, pollInterval: 0.1 });
		expect(result.error?.message).toBe('Generation gen_7 was started, but waiting for it failed: The service refused access to GET /studio/generations/gen_7 (403): forbidden');
		expect((result.error as { description?: string }).description).toMatch(/^Do not run this node again for it, that would start and charge a new one: use "Studio → Get Generation" with ID gen_7/);
		expect(counted.starts).toBe(1);
	});

	test('402 on start: nothing reserved, sent once', async () => {
		let starts = 0;
		api()
			.post(GEN)
			.times(2)
			.reply(() => {
				starts++;
				return [402, { msg: 'insufficient credits' }];
			});
		const result = await runAction({ resource: 'studio', operation: 'startGeneration', format: format('slideshow'), hook: 'x' });
		expect(result.error?.message).toBe('Not enough credits for this request. Nothing was reserved or charged');
		expect(starts).toBe(1);
	});

	test('a format expression that gives nothing is a parameter error', async () => {
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'id', value: '={{ $json.missing }}' },
			hook: 'x',
		});
		expect(result.error?.message).toBe('No format chosen');
	});

	test('malformed Inputs (JSON) is a parameter error naming the field', async () => {
		const result = await runAction({
			resource: 'studio',
			operation: 'startGeneration',
			format: format('wall_of_text'),
			inputJson: '{"hook": ',
		});
		expect(result.error?.message).toMatch(/Inputs \(JSON\)/);
	});
});

describe('Studio → Get Generation', () => {
	test('GET /studio/generations/:id; outputs normalised with their location', async () => {
		const scope = api().get(`${GEN}/gen_1`).reply(200, doneGeneration);
		const result = await runAction({ resource: 'studio', operation: 'getGeneration', generationId: 'gen_1' });
		expect(result.output(NODE)[0].json).toEqual({
			...doneGeneration,
			outputs: [
				{ ...doneGeneration.outputs[0], location: doneGeneration.outputs[0].path },
				{ ...doneGeneration.outputs[1], location: doneGeneration.outputs[1].path },
			],
		});
		scope.done();
	});

	test('outputs as a list of plain paths, and Download Outputs', async () => {
		const scope = api()
			.get(`${GEN}/gen_3`)
			.reply(200, { id: 'gen_3', status: 'DONE', outputs: ['/media/a.mp4'] })
			.get('/media/a.mp4')
			.reply(200, Buffer.from('video'), { 'Content-Type': 'video/mp4' });
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: 'gen_3',
			downloadOutputs: true,
		});
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ status: 'done', outputs: [{ location: '/media/a.mp4' }] });
		expect(item.binary?.output_0).toMatchObject({ mimeType: 'video/mp4', fileName: 'a.mp4' });
		scope.done();
	});

	test('an output that redirects to another host (a CDN, presigned storage) downloads, and that host never sees the key', async () => {
		const cdnHeaders: Array<string | undefined> = [];
		const scope = api()
			.get(`${GEN}/gen_5`)
			.reply(200, { id: 'gen_5', status: 'done', outputs: [{ id: 'm', path: '/uploads/clip.mp4' }] })
			.get('/uploads/clip.mp4')
			.reply(302, '', { Location: 'https://cdn.example.net/signed/clip.mp4?sig=abc' });
		const cdn = nock('https://cdn.example.net')
			.get('/signed/clip.mp4')
			.query(true)
			.reply(function () {
				cdnHeaders.push(this.req.headers.authorization as string | undefined);
				return [200, Buffer.from('video'), { 'Content-Type': 'video/mp4' }];
			});
		const result = await runAction({ resource: 'studio', operation: 'getGeneration', generationId: 'gen_5', downloadOutputs: true });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].binary?.output_0).toMatchObject({ mimeType: 'video/mp4' });
		expect(cdnHeaders).toEqual([undefined]);
		scope.done();
		cdn.done();
	});

	test('an ID expression that gives nothing is a parameter error', async () => {
		const result = await runAction({ resource: 'studio', operation: 'getGeneration', generationId: '={{ $json.missing }}' });
		expect(result.error?.message).toBe('"Generation ID" is empty');
	});

	test('a download that fails says so', async () => {
		api()
			.get(`${GEN}/gen_4`)
			.reply(200, { id: 'gen_4', status: 'done', outputs: [{ id: 'm', path: '/gone.png' }] })
			.get('/gone.png')
			.reply(404, 'missing');
		const result = await runAction({ resource: 'studio', operation: 'getGeneration', generationId: 'gen_4', downloadOutputs: true });
		expect(result.error?.message).toBe('Not found: GET /gone.png (404): missing');
	});
});

describe('Studio → List Generations', () => {
	test('GET /studio/generations?status=done, one item per generation', async () => {
		const scope = api()
			.get(GEN)
			.query({ status: 'done' })
			.reply(200, [doneGeneration, { ...doneGeneration, id: 'gen_2' }]);
		const result = await runAction({ resource: 'studio', operation: 'listGenerations', status: 'done', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['gen_1', 'gen_2']);
		scope.done();
	});

	test('paged answers are followed with Return All', async () => {
		const scope = api()
			.get(GEN)
			.reply(200, { generations: [{ id: 'a', status: 'done' }], page: 1, pages: 2 })
			.get(GEN)
			.query({ page: 2 })
			.reply(200, { generations: [{ id: 'b', status: 'done' }], page: 2, pages: 2 });
		const result = await runAction({ resource: 'studio', operation: 'listGenerations', returnAll: true });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b']);
		scope.done();
	});

	test('Limit cuts the list', async () => {
		api().get(GEN).reply(200, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
		const result = await runAction({ resource: 'studio', operation: 'listGenerations', returnAll: false, limit: 2 });
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b']);
	});
});

describe('Studio → Get Credits', () => {
	test.each([
		['an object', { credits: 42 }, { credits: 42 }],
		['a bare number', 42, { credits: 42 }],
	])('GET /credits answering %s', async (_shape, body, expected) => {
		const scope = api().get(`${API_PATH}/credits`).reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({ resource: 'studio', operation: 'getCredits' });
		expect(result.output(NODE)[0].json).toEqual(expected);
		scope.done();
	});
});

