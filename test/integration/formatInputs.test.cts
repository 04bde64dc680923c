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

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox, FORMATS } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => {
		config: IDataObject;
		state: { counts: IDataObject; generations: IDataObject[] };
		reset(): void;
		listen(): Promise<string>;
		close(): Promise<void>;
	};
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

async function fieldsOf(formatId: string): Promise<ResourceMapperField[]> {
	const context = loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{
			authentication: 'apiKey',
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'list', value: formatId },
		},
		credentials,
		{ socialContentApi: { id: '1', name: 'c' } },
	);
	return (await node.methods.resourceMapping.getFormatInputs.call(context)).fields;
}

async function start(parameters: INodeParameters) {
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
		{ credentials, settings: { timezone: 'UTC' } },
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
	// A list: lines in its text field; where the format does not say it is a list, JSON.
	if (input.type === 'array')
		return field.type
			? `first ${field.id}\nsecond ${field.id}`
			: `["first ${field.id}", "second ${field.id}"]`;
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
			expect(fields.map((field) => field.id)).toEqual(format.inputs.map((input) => input.name));
			if (shape === 'names') {
				// A bare list of names says nothing of required or type: every field offered, none marked.
				expect(fields.every((field) => !field.required && field.type === undefined)).toBe(true);
			} else {
				expect(fields.filter((field) => field.required).map((field) => field.id)).toEqual(
					format.inputs.filter((input) => input.required).map((input) => input.name),
				);
				// A list input is a text field, one item per line (n8n gives lists a JSON editor).
				expect(fields.map((field) => field.type)).toEqual(
					format.inputs.map((input) =>
						input.options ? 'options' : input.type === 'array' ? 'string' : input.type,
					),
				);
			}
			const filled = Object.fromEntries(
				fields.map((field, index) => [field.id, sampleValue(field, format.inputs[index])]),
			);
			const inputs = formatInputs(filled, fields);
			const result = await start({ ...startGeneration(format.id, {}), inputs });
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
	const context = loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{
			authentication: 'apiKey',
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'id', value: 'odd' },
		},
		{ socialContentApi: { instanceUrl: 'https://app.example.com', apiKey: 'k' } },
		{ socialContentApi: { id: '1', name: 'c' } },
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
		const context = loadOptionsContextFor(
			ACTION_NODE_TYPE,
			{
				authentication: 'apiKey',
				resource: 'studio',
				operation: 'startGeneration',
				format: { __rl: true, mode: 'id', value: 'timeline' },
			},
			credentialsNocked,
			{ socialContentApi: { id: '1', name: 'c' } },
		);
		return (await node.methods.resourceMapping.getFormatInputs.call(context)).fields;
	}

	async function startWith(cuts: string): Promise<{ error?: Error; sent?: IDataObject }> {
		const listed = await fields();
		let sent: IDataObject | undefined;
		nock(APP)
			.post('/api/public/v1/studio/generations', (body: IDataObject) => {
				sent = body;
				return true;
			})
			.optionally()
			.reply(200, { id: 'gen_1', status: 'queued', credits: 1 });
		const result = await runChain(
			[
				{ name: 'Start', type: START_NODE_TYPE },
				{
					name: 'Node',
					type: ACTION_NODE_TYPE,
					parameters: {
						authentication: 'apiKey',
						...startGeneration('timeline', {}),
						inputs: formatInputs({ prompt: 'a film', cuts }, listed),
					},
					credentials: { socialContentApi: { id: '1', name: 'c' } },
				},
			],
			{ credentials: credentialsNocked, settings: { timezone: 'UTC' } },
		);
		return { error: result.error, sent };
	}

	test('shown as a text field whose label says how to fill it', async () => {
		expect((await fields()).find((field) => field.id === 'cuts')).toMatchObject({
			displayName: 'Cuts (list of numbers: one per line, or comma-separated)',
			type: 'string',
			required: false,
		});
	});

	test.each([
		['one per line', '2\n5\n9', [2, 5, 9]],
		['comma-separated', '2, 5,9', [2, 5, 9]],
	])('filled %s: sent as a list of numbers', async (_how, cuts, expected) => {
		const { error, sent } = await startWith(cuts);
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film', cuts: expected } });
	});

	test('left empty (not required): not an error, not sent', async () => {
		const { error, sent } = await startWith('');
		expect(error).toBeUndefined();
		expect(sent).toEqual({ formatId: 'timeline', input: { prompt: 'a film' } });
	});

	test('an item that is not a number: refused before sending, named by its label', async () => {
		const { error, sent } = await startWith('2, five');
		expect(error?.message).toBe('"Cuts": "five" is not a number');
		expect(sent).toBeUndefined();
	});
});
