import type { IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';
import { Readable } from 'node:stream';

import {
	API_PATH,
	api,
	formatInputs,
	NODE,
	runAction,
	startGeneration,
} from '../helpers/fixtures.cjs';
import { clockNow, currentClock } from '../helpers/clock.cjs';
import { PACKAGE, registerNodeType } from '../helpers/harness.cjs';
import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { TOOL_CALL_BOUND_MS } from '../../nodes/SocialContent/actions/fields/parameters';

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
const generation = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Studio → Get Many Formats', () => {
	test.each([
		['an array', formats],
		['a wrapper', { formats }],
	])(
		'GET /studio/formats answering %s → one item per format with id, name, price',
		async (_shape, body) => {
			const scope = api().get(`${API_PATH}/studio/formats`).reply(200, body);
			const result = await runAction({
				resource: 'studio',
				operation: 'listFormats',
				simplify: false,
			});
			expect(result.output(NODE).map((item) => item.json)).toEqual([
				{ ...formats[0], price: 2 },
				{ ...formats[1], price: 10 },
			]);
			scope.done();
		},
	);

	test('Simplify (the default): id, name, price once, and the inputs read into fields', async () => {
		api().get(`${API_PATH}/studio/formats`).reply(200, formats);
		const result = await runAction({ resource: 'studio', operation: 'listFormats' });
		expect(result.output(NODE)[1].json).toEqual({
			id: 'slideshow',
			name: 'Slideshow',
			price: 10,
			inputs: [
				{ name: 'hook', label: 'Hook', required: false },
				{ name: 'slides', label: 'Slides', required: false },
			],
		});
	});

	test('a map of id → record, with the price under another name', async () => {
		api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, { image_fast: { label: 'Fast image', price: '1' } });
		const result = await runAction({ resource: 'studio', operation: 'listFormats' });
		expect(result.output(NODE)[0].json).toMatchObject({
			id: 'image_fast',
			name: 'Fast image',
			price: 1,
		});
	});
});

describe('Studio → Start Generation', () => {
	test('POST /studio/generations with formatId and the mapped inputs, typed as the format says; not waiting: the started generation', async () => {
		const scope = api()
			.post(GEN, { formatId: 'video_clip', input: { prompt: 'a red bicycle', seconds: 12 } })
			.reply(200, { id: 'gen_9', status: 'queued', credits: 2 });
		const result = await runAction({
			...startGeneration('video_clip', {}),
			inputs: formatInputs({ prompt: 'a red bicycle', seconds: '12', style: '' }, [
				{ id: 'prompt', required: true },
				{ id: 'seconds', type: 'number' },
				{ id: 'style' },
			]),
		});
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toEqual({
			id: 'gen_9',
			status: 'queued',
			credits: 2,
			outputs: [],
		});
		scope.done();
	});

	test('a required input left empty is a parameter error naming it; nothing is sent', async () => {
		const start = api().post(GEN).reply(200, { id: 'never' });
		const result = await runAction({
			...startGeneration('image_fast', {}),
			inputs: formatInputs({ prompt: '' }, [{ id: 'prompt', required: true }]),
		});
		expect(result.error?.message).toBe('Format "image_fast" needs "prompt"');
		expect(start.isDone()).toBe(false);
		nock.cleanAll();
	});

	test("Map Automatically: the input item's fields named like the format's inputs", async () => {
		const scope = api()
			.post(GEN, { formatId: 'image_fast', input: { prompt: 'from the item' } })
			.reply(200, { id: 'gen_a', status: 'queued' });
		const inputs = {
			...(formatInputs({}, [{ id: 'prompt', required: true }]) as IDataObject),
			mappingMode: 'autoMapInputData',
		};
		const result = await runAction(
			{ ...startGeneration('image_fast', {}), inputs } as INodeParameters,
			{
				items: [{ prompt: 'from the item', unrelated: 1 }],
			},
		);
		expect(result.error).toBeUndefined();
		scope.done();
	});

	test.each([
		[
			'Name/Value Pairs',
			{
				inputMode: 'pairs',
				otherInputs: {
					input: [
						{ name: 'hook', value: 'Stop' },
						{ name: 'lines', value: '12' },
						{ name: 'dark', value: 'true' },
					],
				},
			},
			{ hook: 'Stop', lines: 12, dark: true },
		],
		[
			'JSON',
			{ inputMode: 'json', inputJson: '{"hook": "Stop", "lines": 12}' },
			{ hook: 'Stop', lines: 12 },
		],
		['JSON, left at its default ({})', { inputMode: 'json' }, {}],
	])('Inputs as %s', async (_mode, parameters, input) => {
		const scope = api()
			.post(GEN, { formatId: 'wall_of_text', input })
			.reply(200, { id: 'gen_j', status: 'queued' });
		const result = await runAction({
			...startGeneration('wall_of_text', {}),
			...parameters,
		} as INodeParameters);
		expect(result.error).toBeUndefined();
		scope.done();
	});

	test('Simplify off: the start answer with every field', async () => {
		api()
			.post(GEN)
			.reply(200, { id: 'gen_r', status: 'queued', credits: 2, formatId: 'wall_of_text' });
		const result = await runAction(
			startGeneration('wall_of_text', { hook: 'x' }, { simplify: false }),
		);
		expect(result.output(NODE)[0].json).toEqual({
			id: 'gen_r',
			status: 'queued',
			credits: 2,
			formatId: 'wall_of_text',
			format: 'wall_of_text',
			outputs: [],
		});
	});

	test('Max Credits: refuses before starting when the format costs more', async () => {
		api().get(`${API_PATH}/studio/formats`).reply(200, formats);
		const start = api().post(GEN).reply(200, { id: 'never' });
		const result = await runAction(
			startGeneration('slideshow', { hook: 'x' }, { options: { maxCredits: 5 } }),
		);
		expect(result.error?.message).toBe(
			'Format "Slideshow" (slideshow) costs 10 credits, more than Max Credits (5)',
		);
		expect(start.isDone()).toBe(false);
	});

	test('Max Credits: starts when the price is within it', async () => {
		const scope = api()
			.get(`${API_PATH}/studio/formats`)
			.reply(200, formats)
			.post(GEN)
			.reply(200, { id: 'gen_2', status: 'queued', credits: 2 });
		const result = await runAction(
			startGeneration('wall_of_text', { hook: 'x' }, { options: { maxCredits: 5 } }),
		);
		expect(result.output(NODE)[0].json.id).toBe('gen_2');
		scope.done();
	});

	test('Wait for Completion and Download Outputs are on by default: polls until done, attaches output_0 and output_1', async () => {
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
		const defaults = startGeneration('slideshow', { hook: 'x' }, { pollInterval: 0.1 });
		delete defaults.waitForCompletion;
		const result = await runAction(defaults);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		// Simplified: each output's location once, as path (what Post → Create attaches).
		expect(item.json).toEqual({
			id: 'gen_1',
			status: 'done',
			credits: 10,
			format: 'slideshow',
			outputs: [
				{ id: 'med_1', path: '/uploads/gen_1/slide-1.png' },
				{ id: 'med_2', path: 'https://cdn.example.net/gen_1/slide-2.png' },
			],
		});
		expect(Object.keys(item.binary ?? {})).toEqual(['output_0', 'output_1']);
		expect(item.binary?.output_0).toMatchObject({ mimeType: 'image/png', fileName: 'slide-1.png' });
		expect(Buffer.from(item.binary!.output_0.data, 'base64').toString()).toBe('png-one');
		expect(Buffer.from(item.binary!.output_1.data, 'base64').toString()).toBe('png-two');
		scope.done();
		cdn.done();
	});

	test('a failed generation: "Generation gen_… failed: <reason>" once, with generationId in the error item', async () => {
		api()
			.post(GEN)
			.reply(200, { id: 'gen_f', status: 'queued', credits: 2 })
			.get(`${GEN}/gen_f`)
			.reply(200, { id: 'gen_f', status: 'failed', error: 'model overloaded' });
		const result = await runAction(
			startGeneration(
				'wall_of_text',
				{ hook: 'x' },
				{ waitForCompletion: true, pollInterval: 0.1 },
			),
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(result.output(NODE)[0].json).toEqual({
			error: 'Generation gen_f failed: model overloaded',
			details: {
				generationId: 'gen_f',
				description:
					'The service reported it as failed. Check its inputs and start a new one; "Studio → Get Credits" (resource "studio", operation "getCredits") shows what is left.',
			},
		});
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
	/** A body of `bytes` bytes, one each `everyMs` on the run's clock (test/skipWaits.cts). */
	function trickle(bytes: number, everyMs: number): Readable {
		const clock = currentClock();
		let sent = 0;
		const body: Readable = new Readable({
			highWaterMark: 1,
			read: () => {
				void clock.wait(everyMs).then(() => {
					if (body.destroyed) return;
					body.push(sent++ < bytes ? Buffer.from('v') : null);
				});
			},
		});
		return body;
	}
	const startWallOfText = async (parameters: INodeParameters) =>
		await runAction(
			startGeneration(
				'wall_of_text',
				{ hook: 'x' },
				{ waitForCompletion: true, downloadOutputs: false, ...parameters },
			),
		);

	test('timeout: the error names the generation id; it is not started again', async () => {
		const { counted, scope } = countStarts('gen_slow');
		scope.get(`${GEN}/gen_slow`).times(100).reply(200, { id: 'gen_slow', status: 'running' });
		const result = await startWallOfText({ pollInterval: 0.1, timeout: 0.005 });
		expect(result.error?.message).toBe(
			'Generation gen_slow did not finish in time (still running)',
		);
		expect((result.error as { description?: string }).description).toContain('gen_slow');
		expect(counted.starts).toBe(1);
	});

	describe('as a tool (an AI agent or an MCP client): the call returns before its caller gives up (#50)', () => {
		const TOOL_TYPE = `${PACKAGE}.socialContentTool`;
		registerNodeType(TOOL_TYPE, new SocialContent());
		const startAsTool = async (parameters: INodeParameters = {}) =>
			await runAction(
				startGeneration(
					'wall_of_text',
					{ hook: 'x' },
					{ waitForCompletion: true, downloadOutputs: false, ...parameters },
				),
				{ nodeType: TOOL_TYPE },
			);

		/** The bound, and the moment n8n takes to finish the run after it (a caller waits 60 s). */
		const ANSWERED_BY = TOOL_CALL_BOUND_MS + 1000;
		const timed = async (parameters: INodeParameters = {}) => {
			const before = clockNow();
			const result = await startAsTool(parameters);
			return { result, took: clockNow() - before };
		};
		type Answer = [number, IDataObject, Record<string, string>?];
		/** Status checks of `id`: running until `atMs` into the call, then `later`. */
		const checksUntil = (
			scope: nock.Scope,
			id: string,
			atMs: number,
			later: () => Answer | Promise<Answer>,
		) => {
			const from = clockNow();
			scope
				.get(`${GEN}/${id}`)
				.times(1000)
				.reply(async () => (clockNow() - from < atMs ? [200, { id, status: 'running' }] : later()));
		};
		const stillRunning = (id: string, when = 'in a minute', limited = '') =>
			`Generation ${id} was started (once, and charged) and is still running${limited}. Do not start it again: call "Studio → Get Generation" (resource "studio", operation "getGeneration") with generationId ${id} ${when} to read its outputs.`;

		test(`still running after ${TOOL_CALL_BOUND_MS / 1000} s: its id, its status and what to call next, within the bound; started once`, async () => {
			const { counted, scope } = countStarts('gen_long');
			scope.get(`${GEN}/gen_long`).times(1000).reply(200, { id: 'gen_long', status: 'running' });
			const { result, took } = await timed({ timeout: 15 });
			expect(result.error).toBeUndefined();
			expect(result.output(NODE).map((item) => item.json)).toEqual([
				{ id: 'gen_long', status: 'running', credits: 2, message: stillRunning('gen_long') },
			]);
			expect(took).toBeGreaterThanOrEqual(TOOL_CALL_BOUND_MS);
			expect(took).toBeLessThanOrEqual(ANSWERED_BY);
			expect(counted.starts).toBe(1);
		});

		// #68: the bound covers the whole call, not only the pauses between status checks.
		test('a 429 on the start asking 55 s (then queued, then running for ever): refused at once, nothing started, when to call again', async () => {
			const counted = { starts: 0 };
			api()
				.post(GEN)
				.reply(429, { retryAfter: 55 }, { 'Retry-After': '55' })
				.post(GEN)
				.times(2)
				.reply(() => {
					counted.starts++;
					return [200, { id: 'gen_later', status: 'queued', credits: 2 }];
				})
				.get(`${GEN}/gen_later`)
				.times(1000)
				.reply(200, { id: 'gen_later', status: 'running' });
			const { result, took } = await timed();
			expect(result.error?.message).toBe(
				'Nothing was started or charged: the service is rate limiting and asks to wait 55 s, longer than this call may take (40 s at most). Make the same call again in 55 s',
			);
			expect((result.error as { description?: string }).description).toContain(
				'Nothing was done: make the same call again in 55 s.',
			);
			expect(took).toBeLessThan(TOOL_CALL_BOUND_MS);
			expect(counted.starts).toBe(0);
			nock.cleanAll();
		});

		test('a 429 asking 50 s on a status check 35 s in: the id, still running, and when to check again', async () => {
			const { counted, scope } = countStarts('gen_busy');
			checksUntil(scope, 'gen_busy', 35_000, () => [
				429,
				{ retryAfter: 50 },
				{ 'Retry-After': '50' },
			]);
			const { result, took } = await timed();
			expect(result.error).toBeUndefined();
			expect(result.output(NODE).map((item) => item.json)).toEqual([
				{
					id: 'gen_busy',
					status: 'running',
					credits: 2,
					message: stillRunning(
						'gen_busy',
						'in 50 s',
						' (the service is rate limiting: it asks to wait 50 s)',
					),
				},
			]);
			expect(took).toBeLessThanOrEqual(ANSWERED_BY);
			expect(counted.starts).toBe(1);
			nock.cleanAll();
		});

		test('done at about 37 s, its file then arriving over 24 s (Download Outputs on): done, without the file, and how to get it', async () => {
			const { counted, scope } = countStarts('gen_file');
			const done = {
				id: 'gen_file',
				status: 'done',
				outputs: [{ id: 'm1', path: '/uploads/f.mp4' }],
			};
			checksUntil(scope, 'gen_file', 37_000, () => [200, done]);
			// 24 s of a file on the run's clock: a byte each 250 ms.
			scope
				.get('/uploads/f.mp4')
				.reply(200, () => trickle(96, 250), { 'Content-Type': 'video/mp4' });
			const { result, took } = await timed({ downloadOutputs: true });
			expect(result.error).toBeUndefined();
			const [item] = result.output(NODE);
			expect(item.binary).toBeUndefined();
			expect(item.json).toMatchObject({
				id: 'gen_file',
				status: 'done',
				outputs: [{ id: 'm1', path: '/uploads/f.mp4' }],
				message:
					'Generation gen_file is done (started once, and charged), but its files did not arrive within this call. Do not start it again: call "Studio → Get Generation" (resource "studio", operation "getGeneration") with generationId gen_file and Download Outputs on to get them.',
			});
			expect(took).toBeLessThanOrEqual(ANSWERED_BY);
			expect(counted.starts).toBe(1);
			nock.cleanAll();
		});

		test('a start that gets no answer before the bound (after a 429 of 38 s on the price check): may have started, where to look; sent once', async () => {
			const counted = { starts: 0 };
			api()
				.get(`${API_PATH}/studio/formats`)
				.reply(429, { retryAfter: 38 }, { 'Retry-After': '38' })
				.get(`${API_PATH}/studio/formats`)
				.reply(200, formats)
				.post(GEN)
				.times(2)
				.reply(async () => {
					counted.starts++;
					return await new Promise<Answer>(() => undefined);
				});
			const { result, took } = await timed({ options: { maxCredits: 5 } });
			expect(result.error?.message).toBe(
				'The start got no answer within this call (40 s at most): the generation may have been started, and charged. Before starting it again, look for it with "Studio → Get Many Generations" (resource "studio", operation "listGenerations")',
			);
			expect(took).toBeLessThanOrEqual(ANSWERED_BY);
			expect(counted.starts).toBe(1);
			nock.cleanAll();
		});

		test('a status check that never answers (Timeout at its default, 120 s): cut at the bound, the id and its status as last seen', async () => {
			const { counted, scope } = countStarts('gen_mute');
			// Answers until 35 s in, then never: what is left of the bound (a few real seconds) is
			// all the check waits, where its Timeout alone would be 120 s, three times.
			checksUntil(
				scope,
				'gen_mute',
				35_000,
				async () => await new Promise<Answer>(() => undefined),
			);
			const { result, took } = await timed();
			expect(result.error).toBeUndefined();
			expect(result.output(NODE).map((item) => item.json)).toEqual([
				{ id: 'gen_mute', status: 'running', credits: 2, message: stillRunning('gen_mute') },
			]);
			expect(took).toBeLessThanOrEqual(ANSWERED_BY);
			expect(counted.starts).toBe(1);
			nock.cleanAll();
		});

		test('done within the bound: the result, as in a workflow', async () => {
			const { scope } = countStarts('gen_quick');
			scope
				.get(`${GEN}/gen_quick`)
				.reply(200, { id: 'gen_quick', status: 'running' })
				.get(`${GEN}/gen_quick`)
				.reply(200, {
					id: 'gen_quick',
					status: 'done',
					outputs: [{ id: 'm1', path: '/uploads/q.png' }],
				});
			const result = await startAsTool({ pollInterval: 1 });
			expect(result.error).toBeUndefined();
			expect(result.output(NODE)[0].json).toMatchObject({ id: 'gen_quick', status: 'done' });
		});
	});

	test('a failed check while waiting says the generation was started, its id, and where to look', async () => {
		const { counted, scope } = countStarts('gen_7');
		scope.get(`${GEN}/gen_7`).reply(403, { msg: 'forbidden' });
		const result = await startWallOfText({ pollInterval: 0.1 });
		expect(result.error?.message).toBe(
			'Generation gen_7 was started, but waiting for it failed: The service refused access to GET /studio/generations/gen_7 (403): forbidden',
		);
		expect((result.error as { description?: string }).description).toMatch(
			/^Do not run this node again for it, that would start and charge a new one: use "Studio → Get Generation" \(resource "studio", operation "getGeneration"\) with ID gen_7/,
		);
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
		const result = await runAction(startGeneration('slideshow', { hook: 'x' }));
		expect(result.error?.message).toBe(
			'Not enough credits for this request. Nothing was reserved or charged',
		);
		expect(starts).toBe(1);
	});

	test('a format expression that gives nothing is a parameter error', async () => {
		const result = await runAction(startGeneration('={{ $json.missing }}', { hook: 'x' }));
		expect(result.error?.message).toBe('No format chosen');
	});

	test('malformed Inputs (JSON) is a parameter error naming the field', async () => {
		const result = await runAction(
			startGeneration('wall_of_text', {}, { inputMode: 'json', inputJson: '{"hook": ' }),
		);
		expect(result.error?.message).toMatch(/Inputs \(JSON\)/);
	});
});

describe('Studio → Get Generation', () => {
	test('GET /studio/generations/:id; Simplify off: every field, outputs with their location', async () => {
		const scope = api().get(`${GEN}/gen_1`).reply(200, doneGeneration);
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: generation('gen_1'),
			simplify: false,
		});
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
			generationId: generation('gen_3'),
			downloadOutputs: true,
		});
		const [item] = result.output(NODE);
		expect(item.json).toEqual({ id: 'gen_3', status: 'done', outputs: [{ path: '/media/a.mp4' }] });
		expect(item.binary?.output_0).toMatchObject({ mimeType: 'video/mp4', fileName: 'a.mp4' });
		scope.done();
	});

	test('an output that redirects to another host (a CDN, presigned storage) downloads, and that host never sees the key', async () => {
		const cdnHeaders: Array<string | undefined> = [];
		const scope = api()
			.get(`${GEN}/gen_5`)
			.reply(200, {
				id: 'gen_5',
				status: 'done',
				outputs: [{ id: 'm', path: '/uploads/clip.mp4' }],
			})
			.get('/uploads/clip.mp4')
			.reply(302, '', { Location: 'https://cdn.example.net/signed/clip.mp4?sig=abc' });
		const cdn = nock('https://cdn.example.net')
			.get('/signed/clip.mp4')
			.query(true)
			.reply(function () {
				cdnHeaders.push(this.req.headers.authorization as string | undefined);
				return [200, Buffer.from('video'), { 'Content-Type': 'video/mp4' }];
			});
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: generation('gen_5'),
			downloadOutputs: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].binary?.output_0).toMatchObject({ mimeType: 'video/mp4' });
		expect(cdnHeaders).toEqual([undefined]);
		scope.done();
		cdn.done();
	});

	test('an ID expression that gives nothing is a parameter error', async () => {
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: generation('={{ $json.missing }}'),
		});
		expect(result.error?.message).toBe('No generation chosen');
	});

	test('a download that fails says so', async () => {
		api()
			.get(`${GEN}/gen_4`)
			.reply(200, { id: 'gen_4', status: 'done', outputs: [{ id: 'm', path: '/gone.png' }] })
			.get('/gone.png')
			.reply(404, 'missing');
		const result = await runAction({
			resource: 'studio',
			operation: 'getGeneration',
			generationId: generation('gen_4'),
			downloadOutputs: true,
		});
		expect(result.error?.message).toBe('Not found: GET /gone.png (404): missing');
	});
});

describe('Studio → Get Many Generations', () => {
	test('GET /studio/generations?status=done, one item per generation', async () => {
		const scope = api()
			.get(GEN)
			.query({ status: 'done' })
			.reply(200, [doneGeneration, { ...doneGeneration, id: 'gen_2' }]);
		const result = await runAction({
			resource: 'studio',
			operation: 'listGenerations',
			status: 'done',
			returnAll: true,
		});
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
		const result = await runAction({
			resource: 'studio',
			operation: 'listGenerations',
			returnAll: true,
		});
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b']);
		scope.done();
	});

	test('Limit cuts the list', async () => {
		api()
			.get(GEN)
			.reply(200, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
		const result = await runAction({
			resource: 'studio',
			operation: 'listGenerations',
			returnAll: false,
			limit: 2,
		});
		expect(result.output(NODE).map((item) => item.json.id)).toEqual(['a', 'b']);
	});
});

describe('Studio → Get Credits', () => {
	test.each([
		['an object', { credits: 42 }, { credits: 42 }],
		['a bare number', 42, { credits: 42 }],
	])('GET /credits answering %s', async (_shape, body, expected) => {
		const scope = api()
			.get(`${API_PATH}/credits`)
			.reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
		const result = await runAction({ resource: 'studio', operation: 'getCredits' });
		expect(result.output(NODE)[0].json).toEqual(expected);
		scope.done();
	});
});
