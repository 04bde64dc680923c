/**
 * Start Generation shaped by its format, against the sandbox: for every format it offers, the
 * panel's fields come from GET /studio/formats (required ones marked, typed), and a start with
 * those fields filled is accepted. Once per shape the sandbox can give a format record's inputs
 * (a guess: the spec says "Field names and shape of the format record: not shown").
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameters,
	ResourceMapperField,
} from 'n8n-workflow';
import nock from 'nock';

import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { formatInputs, startGeneration } from '../helpers/parameters.cjs';
import {
	ACTION_NODE_TYPE,
	loadOptionsContextFor,
	runChain,
	START_NODE_TYPE,
} from '../helpers/harness.cjs';
import {
	addAllInputs,
	refreshInputs,
	removeAllInputs,
	typeInput,
} from '../helpers/mapperEditor.cjs';
import { createSandbox } from '../helpers/sandbox.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { FORMATS } = require('../sandbox/server.js') as {
	FORMATS: Array<{
		id: string;
		inputs: Array<{
			name: string;
			type: string;
			items?: string;
			required: boolean;
			options?: string[];
		}>;
	}>;
};

const node = new SocialContent();
let sandbox: ReturnType<typeof createSandbox>;
let credentials: Record<string, ICredentialDataDecryptedObject>;

beforeAll(async () => {
	nock.enableNetConnect('127.0.0.1');
	sandbox = createSandbox({ queuedMs: 50, runningMs: 100, credits: 10_000 });
	credentials = {
		socialContentApi: { instanceUrl: await sandbox.listen(), apiKey: 'sk_sandbox_demo_key' },
	};
});
afterAll(async () => {
	await sandbox.close();
	nock.restore();
});

/** Start Generation's panel with this format picked, as the editor asks for its fields and lists. */
function panelWith(
	formatId: string,
	credentialData: Record<string, ICredentialDataDecryptedObject> = credentials,
	mode: 'list' | 'id' = 'list',
) {
	return loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{
			authentication: 'apiKey',
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode, value: formatId },
		},
		credentialData,
		{ socialContentApi: { id: '1', name: 'c' } },
	);
}

async function fieldsOf(formatId: string): Promise<ResourceMapperField[]> {
	return (await node.methods.resourceMapping.getFormatInputs.call(panelWith(formatId))).fields;
}

/** Runs Start Generation with these parameters, against the sandbox or another (nocked) instance. */
async function start(
	parameters: INodeParameters,
	credentialData: Record<string, ICredentialDataDecryptedObject> = credentials,
) {
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type: ACTION_NODE_TYPE,
				parameters: { authentication: 'apiKey', ...parameters },
				credentials: { socialContentApi: { id: '1', name: 'c' } },
			},
		],
		{ credentials: credentialData, settings: { timezone: 'UTC' } },
	);
	return result;
}

/**
 * What a user would fill in: a value of the field's type; where the format does not say the type
 * (a bare list of names), the text they would type knowing the input (e.g. "3" for seconds).
 */
function sampleValue(
	field: ResourceMapperField,
	input: { type: string; options?: string[] },
): string | number {
	// A list the format does not say is a list (a bare list of names): JSON in its one-line field.
	if (input.type === 'array') return `["first ${field.id}", "second ${field.id}"]`;
	const type = field.type ?? input.type;
	const value = input.options
		? input.options[0]
		: type === 'number'
			? 3
			: type === 'url'
				? 'https://example.com/demo'
				: `a ${field.id}`;
	return field.type ? value : String(value);
}

const SHAPES = ['fields', 'schema', 'names'] as const;

describe.each(SHAPES)('format records whose inputs are %s', (shape) => {
	beforeAll(() => {
		sandbox.config.formatRecords = shape;
	});
	beforeEach(() => sandbox.reset());

	test.each(FORMATS.map((format) => [format.id, format] as const))(
		'%s: its inputs as fields; filled, the start is accepted',
		async (_id, format) => {
			const fields = await fieldsOf(format.id);
			// A list input's field: its id says what it is, its input, its items' type, and if required.
			expect(fields.map((field) => field.id)).toEqual(
				format.inputs.map((input) =>
					shape !== 'names' && input.type === 'array'
						? `list:${input.items}:${input.required ? 'required' : 'optional'}:${input.name}`
						: input.name,
				),
			);
			if (shape === 'names') {
				// A bare list of names says nothing of required or type: every field offered, none marked.
				expect(fields.every((field) => !field.required && field.type === undefined)).toBe(true);
			} else {
				expect(fields.filter((field) => field.required).map((field) => field.id)).toEqual(
					format.inputs.filter((input) => input.required).map((input) => input.name),
				);
				// A list input is hidden here: it is filled under List Inputs, several lines at a time.
				expect(fields.map((field) => [field.type, field.display])).toEqual(
					format.inputs.map((input) =>
						input.options
							? ['options', true]
							: input.type === 'array'
								? ['array', false]
								: [input.type, true],
					),
				);
			}
			const shown = fields.filter((field) => field.display);
			const filled = Object.fromEntries(
				shown.map((field) => [field.id, sampleValue(field, format.inputs[fields.indexOf(field)])]),
			);
			const lists = format.inputs
				.filter((input) => shape !== 'names' && input.type === 'array')
				.map(({ name }) => ({ name, entries: `first ${name}\nsecond ${name}` }));
			const inputs = formatInputs(filled, fields);
			const result = await start({
				...startGeneration(format.id, {}),
				inputs,
				listInputs: { input: lists },
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.state.counts.generationsStarted).toBe(1);
			for (const input of format.inputs.filter((entry) => entry.type === 'array')) {
				expect(sandbox.state.generations[0].input).toMatchObject({
					[input.name]: [`first ${input.name}`, `second ${input.name}`],
				});
			}
		},
	);

	test('a required input left empty: refused', async () => {
		const fields = await fieldsOf('image_fast');
		const result = await start({
			...startGeneration('image_fast', {}),
			inputs: formatInputs({ prompt: '' }, fields),
		});
		// Where the format marks it required, the node refuses before sending; else the service does.
		expect(result.error?.message).toBe(
			shape === 'names'
				? 'The service rejected the request: Validation failed; input.prompt: Missing required input "prompt"'
				: 'Format "image_fast" needs "Prompt"',
		);
		expect(sandbox.state.counts.generationsStarted).toBe(0);
	});
});

test('a format whose inputs are in no known shape: no fields, and a notice that says to use Name/Value Pairs or JSON', async () => {
	nock.disableNetConnect();
	nock('https://app.example.com')
		.get('/api/public/v1/studio/formats')
		.reply(200, [{ id: 'odd', inputs: 42 }]);
	const context = panelWith(
		'odd',
		{ socialContentApi: { instanceUrl: 'https://app.example.com', apiKey: 'k' } },
		'id',
	);
	const mapped = await node.methods.resourceMapping.getFormatInputs.call(context);
	expect(mapped.fields).toEqual([]);
	expect(mapped.emptyFieldsNotice).toBe(
		'The service does not describe the inputs of "odd". Set "Give Inputs As" to "Name/Value Pairs" or "JSON" and enter them by name.',
	);
	nock.enableNetConnect('127.0.0.1');
});

describe('a list input of numbers (JSON Schema items), as the panel shows and sends it', () => {
	const APP = 'https://app.example.com';
	const schemaFormat = {
		id: 'timeline',
		name: 'Timeline',
		credits: 1,
		inputs: {
			type: 'object',
			properties: {
				prompt: { type: 'string' },
				cuts: { type: 'array', items: { type: 'integer' } },
			},
			required: ['prompt'],
		},
	};
	const credentialsNocked = { socialContentApi: { instanceUrl: APP, apiKey: 'k' } };
	beforeEach(() => nock.disableNetConnect());
	afterEach(() => {
		nock.cleanAll();
		nock.enableNetConnect('127.0.0.1');
	});

	async function fields(): Promise<ResourceMapperField[]> {
		nock(APP).get('/api/public/v1/studio/formats').reply(200, [schemaFormat]);
		const context = panelWith('timeline', credentialsNocked, 'id');
		return (await node.methods.resourceMapping.getFormatInputs.call(context)).fields;
	}

	/**
	 * Cuts given under List Inputs; or, `keptInMapper`, left in Format Inputs' values where the panel
	 * no longer shows them (an earlier form of the field, or a format whose inputs changed). With
	 * `listLabel`, the list's hidden field is labelled so.
	 */
	async function startWith(
		cuts: string | number[],
		keptInMapper = false,
		listLabel?: string,
	): Promise<{ error?: Error; sent?: IDataObject; hints: string[] }> {
		const listed = (await fields()).map((field) =>
			listLabel && !field.display ? { ...field, displayName: listLabel } : field,
		);
		let sent: IDataObject | undefined;
		nock(APP)
			.post('/api/public/v1/studio/generations', (body: IDataObject) => {
				sent = body;
				return true;
			})
			.optionally()
			.reply(200, { id: 'gen_1', status: 'queued', credits: 1 });
		const result = await start(
			{
				...startGeneration('timeline', {}),
				...(keptInMapper
					? { inputs: formatInputs({ prompt: 'a film', cuts: String(cuts), gone: 'x' }, listed) }
					: {
							inputs: formatInputs({ prompt: 'a film' }, listed),
							listInputs: { input: [{ name: 'cuts', entries: cuts }] },
						}),
			},
			credentialsNocked,
		);
		const hints = (result.run.data.resultData.runData.Node?.[0]?.hints ?? []).map(
			(hint) => hint.message,
		);
		return { error: result.error, sent, hints };
	}

	test("hidden in Format Inputs, a list (n8n's array) whose id says its input and its items' type (List Inputs fills it)", async () => {
		expect((await fields()).find((field) => field.displayName === 'Cuts')).toEqual({
			id: 'list:number:optional:cuts',
			displayName: 'Cuts',
			type: 'array',
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: false,
		});
	});

	test('the type is read from the id, not the label: a list field labelled otherwise (another language) still takes numbers', async () => {
		const { error, sent } = await startWith('2\n5', false, 'Schnitte (Liste von Zahlen)');
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film', cuts: [2, 5] } });
	});

	test.each([
		['one per line', '2\n5\n9', [2, 5, 9]],
		['one per line, Windows line ends and blank lines', '2\r\n\r\n5\r\n9\r\n', [2, 5, 9]],
		['as a pasted JSON array', '[2, 5, 9]', [2, 5, 9]],
		['as an array from an expression', [2, 5, 9], [2, 5, 9]],
	])('filled %s: sent as a list of numbers', async (_how, cuts, expected) => {
		const { error, sent } = await startWith(cuts);
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film', cuts: expected } });
	});

	test('a value Format Inputs keeps for a field its panel no longer shows (a list, an input the format dropped): not sent, and the run says so', async () => {
		const { error, sent, hints } = await startWith('2, 5,9', true);
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film' } });
		expect(hints).toEqual([
			'Format Inputs keeps a value for "Cuts", "gone", which its panel no longer shows: it was not sent. Give lists under List Inputs, one entry per line. To remove the value, open Format Inputs, refresh its list of inputs, then change any input there.',
		]);
	});

	test('left empty (not required): not an error, not sent', async () => {
		const { error, sent } = await startWith('');
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film' } });
	});

	test('an entry that is not a number: refused before sending, named by its label', async () => {
		const { error, sent } = await startWith('2\nfive');
		expect(error?.message).toBe('"Cuts": "five" is not a number');
		expect(sent).toBeUndefined();
	});

	test('commas stay inside an entry: "2, 5" on one line is one entry, not two numbers', async () => {
		const { error, sent } = await startWith('2, 5');
		expect(error?.message).toBe('"Cuts": "2, 5" is not a number');
		expect(sent).toBeUndefined();
	});
});

describe('List Inputs: a slideshow’s captions, as a user types them', () => {
	beforeAll(() => {
		sandbox.config.formatRecords = 'fields';
	});
	beforeEach(() => sandbox.reset());

	const slideshow = (listInputs: IDataObject[]) => async () => {
		const fields = await fieldsOf('slideshow');
		return await start({
			...startGeneration('slideshow', {}),
			inputs: formatInputs({ hook: 'Three mistakes' }, fields),
			listInputs: { input: listInputs } as INodeParameters,
		});
	};

	test('one entry per line, commas kept inside an entry: sent as the entries typed', async () => {
		const result = await slideshow([
			{ name: 'captions', entries: 'Intro\nMistake one, and two\n  Outro, at last  \n' },
		])();
		expect(result.error).toBeUndefined();
		expect(sandbox.state.generations[0].input).toEqual({
			hook: 'Three mistakes',
			captions: ['Intro', 'Mistake one, and two', 'Outro, at last'],
		});
	});

	test('the input offered for List Inputs: the format’s only list, as a new row’s value (never marked wrong)', async () => {
		const context = panelWith('slideshow', credentials);
		expect(await node.methods.loadOptions.getListInputs.call(context)).toEqual([
			{ name: 'Captions (list of texts)', value: '' },
		]);
	});

	test('a new row left at its first choice: the format’s only list', async () => {
		const result = await slideshow([{ name: '', entries: 'Intro\nOutro' }])();
		expect(result.error).toBeUndefined();
		expect(sandbox.state.generations[0].input).toEqual({
			hook: 'Three mistakes',
			captions: ['Intro', 'Outro'],
		});
	});

	test('Format Inputs → "Remove All Inputs", then "Add All Inputs" (n8n marks the hidden list removed and brings back only the fields it shows): the list is still the format\'s, and sent', async () => {
		const emptied = addAllInputs(removeAllInputs(formatInputs({}, await fieldsOf('slideshow'))));
		const result = await start({
			...startGeneration('slideshow', {}),
			inputs: typeInput(emptied, 'hook', 'Three mistakes'),
			listInputs: { input: [{ name: '', entries: 'Intro\nOutro' }] } as INodeParameters,
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.state.generations[0].input).toEqual({
			hook: 'Three mistakes',
			captions: ['Intro', 'Outro'],
		});
	});

	/** Format Inputs as a panel of another shape saved it: a value under the list's name. */
	const keptUnderListName = () =>
		formatInputs({ hook: 'Three mistakes', captions: 'Old one, old two' }, [
			{ id: 'hook', displayName: 'Hook', type: 'string', required: true },
			{ id: 'captions', displayName: 'Captions', type: 'string' },
		]);
	const hintsOf = (result: Awaited<ReturnType<typeof start>>) =>
		(result.run.data.resultData.runData.Node?.[0]?.hints ?? []).map((hint) => hint.message);

	test("a value kept under a list's name, then Refresh and an input changed, as the notice says: gone from the saved node; the next run sends the rest and says nothing of it", async () => {
		const refreshed = refreshInputs(keptUnderListName(), await fieldsOf('slideshow'));
		const inputs = typeInput(refreshed, 'hook', 'Three mistakes!');
		expect((inputs as { value: IDataObject }).value).toEqual({ hook: 'Three mistakes!' });
		const result = await start({ ...startGeneration('slideshow', {}), inputs });
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
		expect(sandbox.state.generations[0].input).toEqual({ hook: 'Three mistakes!' });
	});

	test("a value kept under a list's name, the list filled under List Inputs as the notice says: the entries are sent, and no notice says the list was not", async () => {
		const loaded = await fieldsOf('slideshow');
		const result = await start({
			...startGeneration('slideshow', {}),
			inputs: formatInputs({ hook: 'Three mistakes', captions: 'Old one, old two' }, loaded),
			listInputs: { input: [{ name: '', entries: 'Intro\nOutro' }] } as INodeParameters,
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
		expect(sandbox.state.generations[0].input).toEqual({
			hook: 'Three mistakes',
			captions: ['Intro', 'Outro'],
		});
	});

	test('a node saved with an older list field (Captions shown, one line), against a service answering as NestJS does: the 400 names the field the service named', async () => {
		sandbox.config.profile = 'postiz';
		try {
			const result = await start({
				...startGeneration('slideshow', {}),
				inputs: keptUnderListName(),
			});
			expect(result.error?.message).toBe(
				'The service rejected the request: input.captions must be a list of strings',
			);
			expect((result.error as { description?: string }).description).toBe(
				'Fix "input.captions", the field the service named, and run again.',
			);
			expect(sandbox.state.counts.generationsStarted).toBe(0);
		} finally {
			sandbox.config.profile = 'spec';
		}
	});

	test.each([
		[
			'an input that is not a list',
			[{ name: 'hook', entries: 'a\nb' }],
			'"Hook" is not a list: fill it under Format Inputs',
		],
	])('%s: refused before anything is started', async (_case, lists, message) => {
		const result = await slideshow(lists)();
		expect(result.error?.message).toBe(message);
		expect(sandbox.state.counts.generationsStarted).toBe(0);
	});

	test('an input the loaded fields do not know (loaded before the format changed, or a format by expression): sent as a list of texts, the service judges it', async () => {
		const fields = await fieldsOf('slideshow');
		const result = await start({
			...startGeneration('slideshow', {}),
			inputs: formatInputs(
				{ hook: 'Three mistakes' },
				fields.filter((field) => field.display),
			),
			listInputs: { input: [{ name: 'captions', entries: 'a\nb, c' }] } as INodeParameters,
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.state.generations[0].input).toEqual({
			hook: 'Three mistakes',
			captions: ['a', 'b, c'],
		});
	});

	test('a required list left out: refused, naming it and where it is filled, with the format’s name from the picker', async () => {
		nock.disableNetConnect();
		const APP = 'https://app.example.com';
		nock(APP)
			.get('/api/public/v1/studio/formats')
			.reply(200, [
				{
					id: 'carousel',
					name: 'Carousel',
					inputs: [
						{ name: 'title', type: 'string', required: false },
						{ name: 'slides', type: 'array', items: 'string', required: true },
					],
				},
			]);
		const nocked = { socialContentApi: { instanceUrl: APP, apiKey: 'k' } };
		const context = panelWith('carousel', nocked);
		const fields = (await node.methods.resourceMapping.getFormatInputs.call(context)).fields;
		expect(fields).toEqual([
			expect.objectContaining({ id: 'title', required: false, display: true }),
			expect.objectContaining({
				id: 'list:string:required:slides',
				displayName: 'Slides',
				required: false,
				display: false,
			}),
		]);
		const result = await start(
			{
				...startGeneration('carousel', {}),
				format: {
					__rl: true,
					mode: 'list',
					value: 'carousel',
					cachedResultName: 'Carousel · 2 credits',
				},
				inputs: formatInputs({}, fields),
			},
			nocked,
		);
		expect(result.error?.message).toBe('Format "Carousel" (carousel) needs "Slides"');
		expect((result.error as { description?: string }).description).toBe(
			'Add "Slides" under List Inputs, one entry per line. Nothing was started.',
		);
		nock.cleanAll();
		nock.enableNetConnect('127.0.0.1');
	});
});

describe('List Inputs with several lists, or none', () => {
	const APP = 'https://app.example.com';
	const nocked = { socialContentApi: { instanceUrl: APP, apiKey: 'k' } };
	beforeEach(() => {
		nock.disableNetConnect();
		nock(APP)
			.get('/api/public/v1/studio/formats')
			.times(2)
			.reply(200, [
				{
					id: 'two_lists',
					name: 'Two Lists',
					inputs: [
						{ name: 'slides', type: 'array', items: 'string' },
						{ name: 'captions', type: 'array', items: 'string' },
					],
				},
				{ id: 'image_fast', name: 'Image (fast)', inputs: [{ name: 'prompt', type: 'string' }] },
			]);
	});
	afterEach(() => {
		nock.cleanAll();
		nock.enableNetConnect('127.0.0.1');
	});

	test.each([
		[
			'two lists',
			'two_lists',
			[
				{ name: 'Choose a List Input', value: '', description: 'This format takes several lists' },
				{ name: 'Slides (list of texts)', value: 'slides' },
				{ name: 'Captions (list of texts)', value: 'captions' },
			],
		],
		[
			'no list',
			'image_fast',
			[
				{
					name: 'No List in This Format: Remove This Entry',
					value: '',
					description:
						'Format "Image (fast)" (image_fast) takes no list: fill its inputs under Format Inputs',
				},
			],
		],
	])(
		'%s: a new row’s value is one of the choices, which say what to do',
		async (_case, formatId, choices) => {
			const context = panelWith(formatId, nocked);
			expect(await node.methods.loadOptions.getListInputs.call(context)).toEqual(choices);
		},
	);

	test.each([
		['two_lists', 'A list under List Inputs has no input chosen'],
		['image_fast', 'Format "image_fast" takes no list'],
	])(
		'%s, a row left at its first choice: refused before anything is started',
		async (formatId, message) => {
			const fields = (
				await node.methods.resourceMapping.getFormatInputs.call(panelWith(formatId, nocked))
			).fields;
			const result = await start(
				{
					...startGeneration(formatId, {}),
					inputs: formatInputs(formatId === 'image_fast' ? { prompt: 'a cat' } : {}, fields),
					listInputs: { input: [{ name: '', entries: 'a' }] } as INodeParameters,
				},
				nocked,
			);
			expect(result.error?.message).toBe(message);
		},
	);

	test('a format given by expression (its inputs never loaded), a row left at its first choice: asked to name its input, not told the format takes none', async () => {
		const result = await start(
			{
				...startGeneration('two_lists', {}),
				inputs: { mappingMode: 'defineBelow', value: {}, schema: [] } as unknown as INodeParameters,
				listInputs: { input: [{ name: '', entries: 'a' }] } as INodeParameters,
			},
			nocked,
		);
		expect(result.error?.message).toBe('A list under List Inputs has no input chosen');
		expect((result.error as { description?: string }).description).toMatch(/give its id/);
	});
});
