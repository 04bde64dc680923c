/**
 * Start Generation shaped by its format, against the sandbox: for every format it offers, the
 * panel's fields come from GET /studio/formats (required ones marked, typed), and a start with
 * those fields filled is accepted. Once per shape the sandbox can give a format record's inputs
 * (a guess: the spec says "Field names and shape of the format record: not shown").
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';
import nock from 'nock';

import { SocialContent } from '../../nodes/SocialContent/SocialContent.node';
import { formatInputs, startGeneration } from '../helpers/parameters';
import { ACTION_NODE_TYPE, loadOptionsContextFor, runChain, START_NODE_TYPE } from '../helpers/harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox, FORMATS } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => { config: IDataObject; state: { counts: IDataObject }; reset(): void; listen(): Promise<string>; close(): Promise<void> };
	FORMATS: Array<{ id: string; inputs: Array<{ name: string; type: string; required: boolean; options?: string[] }> }>;
};

const node = new SocialContent();
let sandbox: ReturnType<typeof createSandbox>;
let credentials: Record<string, ICredentialDataDecryptedObject>;

beforeAll(async () => {
	nock.enableNetConnect('127.0.0.1');
	sandbox = createSandbox({ queuedMs: 50, runningMs: 100, credits: 10_000 });
	credentials = { socialContentApi: { instanceUrl: await sandbox.listen(), apiKey: 'sk_sandbox_demo_key' } };
});
afterAll(async () => {
	await sandbox.close();
	nock.restore();
});

async function fieldsOf(formatId: string): Promise<ResourceMapperField[]> {
	const context = loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{ authentication: 'apiKey', resource: 'studio', operation: 'startGeneration', format: { __rl: true, mode: 'list', value: formatId } },
		credentials,
		{ socialContentApi: { id: '1', name: 'c' } },
	);
	return (await node.methods.resourceMapping.getFormatInputs.call(context)).fields;
}

async function start(parameters: INodeParameters) {
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{ name: 'Node', type: ACTION_NODE_TYPE, parameters: { authentication: 'apiKey', ...parameters }, credentials: { socialContentApi: { id: '1', name: 'c' } } },
		],
		{ credentials, settings: { timezone: 'UTC' } },
	);
	return result;
}

/**
 * What a user would fill in: a value of the field's type; where the format does not say the type
 * (a bare list of names), the text they would type knowing the input (e.g. "3" for seconds).
 */
function sampleValue(field: ResourceMapperField, input: { type: string; options?: string[] }): string | number {
	const type = field.type ?? input.type;
	const value = input.options ? input.options[0] : type === 'number' ? 3 : type === 'url' ? 'https://example.com/demo' : `a ${field.id}`;
	return field.type ? value : String(value);
}

const SHAPES = ['fields', 'schema', 'names'] as const;

describe.each(SHAPES)('format records whose inputs are %s', (shape) => {
	beforeAll(() => {
		sandbox.config.formatRecords = shape;
	});
	beforeEach(() => sandbox.reset());

	test.each(FORMATS.map((format) => [format.id, format] as const))('%s: its inputs as fields; filled, the start is accepted', async (_id, format) => {
		const fields = await fieldsOf(format.id);
		expect(fields.map((field) => field.id)).toEqual(format.inputs.map((input) => input.name));
		if (shape === 'names') {
			// A bare list of names says nothing of required or type: every field offered, none marked.
			expect(fields.every((field) => !field.required && field.type === undefined)).toBe(true);
		} else {
			expect(fields.filter((field) => field.required).map((field) => field.id)).toEqual(format.inputs.filter((input) => input.required).map((input) => input.name));
			expect(fields.map((field) => field.type)).toEqual(format.inputs.map((input) => (input.options ? 'options' : input.type)));
		}
		const filled = Object.fromEntries(fields.map((field, index) => [field.id, sampleValue(field, format.inputs[index])]));
		const inputs = formatInputs(filled, fields);
		const result = await start({ ...startGeneration(format.id, {}), inputs });
		expect(result.error).toBeUndefined();
		expect(sandbox.state.counts.generationsStarted).toBe(1);
	});

	test('a required input left empty: refused', async () => {
		const fields = await fieldsOf('image_fast');
		const result = await start({ ...startGeneration('image_fast', {}), inputs: formatInputs({ prompt: '' }, fields) });
		// Where the format marks it required, the node refuses before sending; else the service does.
		expect(result.error?.message).toBe(shape === 'names' ? 'The service rejected the request: Validation failed; input.prompt: Missing required input "prompt"' : 'Format "image_fast" needs "Prompt"');
		expect(sandbox.state.counts.generationsStarted).toBe(0);
	});
});

test('a format whose inputs are in no known shape: no fields, and a notice that says to use Name/Value Pairs or JSON', async () => {
	nock.disableNetConnect();
	nock('https://app.example.com').get('/api/public/v1/studio/formats').reply(200, [{ id: 'odd', inputs: 42 }]);
	const context = loadOptionsContextFor(
		ACTION_NODE_TYPE,
		{ authentication: 'apiKey', resource: 'studio', operation: 'startGeneration', format: { __rl: true, mode: 'id', value: 'odd' } },
		{ socialContentApi: { instanceUrl: 'https://app.example.com', apiKey: 'k' } },
		{ socialContentApi: { id: '1', name: 'c' } },
	);
	const mapped = await node.methods.resourceMapping.getFormatInputs.call(context);
	expect(mapped.fields).toEqual([]);
	expect(mapped.emptyFieldsNotice).toBe('The service does not describe the inputs of "odd". Set Inputs to "Name/Value Pairs" or "JSON" and enter them by name.');
	nock.enableNetConnect('127.0.0.1');
});
