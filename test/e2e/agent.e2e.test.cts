/**
 * Social Content as an AI agent's tools, in a real n8n: n8n's AI Agent with its OpenAI Chat Model
 * pointed at a scripted model (test/e2e/scriptedModel.cts), calling the node's tools. Checked on
 * what the model receives: after each refusal, a message holding the fact it needs to correct
 * itself (the channels there are, the form of a date, the time now, the format ids, the wait);
 * after a success, the post; for an empty list, something it can read.
 */
import type { IDataObject } from 'n8n-workflow';

import { ScriptedModel, type ToolCall } from './scriptedModel.cjs';
import { N8n, installN8n, installPackage } from './n8n.cjs';
import { API_CREDENTIAL } from './workflows.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => {
		state: { posts: IDataObject[]; counts: IDataObject };
		listen(port?: number): Promise<string>;
		close(): Promise<void>;
	};
};

jest.setTimeout(5 * 60_000);

const TOOL = 'n8n-nodes-social-content.socialContentTool';
const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;

/** The agent's tools: the node's operations, named as the editor names them when added. */
const tools: Array<[string, IDataObject]> = [
	[
		'Create a post in Social Content',
		{
			resource: 'post',
			operation: 'create',
			type: fromAI('type', 'now or schedule'),
			date: fromAI('date', 'When to post, ISO 8601 with a time zone'),
			channels: fromAI('channels', 'Channel ids or exact names, comma-separated'),
			content: { parts: [{ text: fromAI('text', 'The text of the post') }] },
		},
	],
	[
		'Start a generation in Social Content',
		{
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'id', value: fromAI('format', 'The format id') },
			inputMode: 'json',
			inputJson: '{"prompt": "a red bicycle"}',
			waitForCompletion: false,
			options: { maxCredits: 50 },
		},
	],
	[
		'Get many posts in Social Content',
		{
			resource: 'post',
			operation: 'list',
			startDate: fromAI('startDate', 'From, ISO 8601'),
			endDate: fromAI('endDate', 'Up to, ISO 8601'),
		},
	],
];

/** What the model does, one tool call per turn; each result is checked below, in this order. */
const SCRIPT: ToolCall[] = [
	// 1. A channel that is none of the connected ones.
	{ tool: 'Create_a_post', args: { type: 'now', channels: 'threads', text: 'Hello' } },
	// 2. A date in words.
	{
		tool: 'Create_a_post',
		args: { type: 'schedule', date: 'next tuesday', channels: 'Sandbox on X', text: 'Hello' },
	},
	// 3. A date in the past.
	{
		tool: 'Create_a_post',
		args: {
			type: 'schedule',
			date: '2020-01-01T10:00:00Z',
			channels: 'Sandbox on X',
			text: 'Hello',
		},
	},
	// 4. A format that does not exist.
	{ tool: 'Start_a_generation', args: { format: 'carousel' } },
	// 5. Right: the channel by its name.
	{
		tool: 'Create_a_post',
		args: { type: 'now', channels: 'Sandbox on X', text: 'Hello from the agent' },
	},
	// 6. Again, past the instance's posts per hour.
	{
		tool: 'Create_a_post',
		args: { type: 'now', channels: 'Sandbox on X', text: 'Hello again' },
	},
	// 7. A range with no posts in it.
	{
		tool: 'Get_many_posts',
		args: { startDate: '2031-01-01T00:00:00Z', endDate: '2031-01-02T00:00:00Z' },
	},
];

let n8n: N8n;
let model: ScriptedModel;
let sandbox: ReturnType<typeof createSandbox>;

beforeAll(async () => {
	const bins = installN8n();
	// The open-source backend's answers, with one post an hour allowed (its API_LIMIT).
	sandbox = createSandbox({ profile: 'postiz', postsPerHour: 1, queuedMs: 50, runningMs: 100 });
	const sandboxUrl = await sandbox.listen();
	model = new ScriptedModel(SCRIPT, 'Posted to Sandbox on X.');
	const modelUrl = await model.listen();

	n8n = new N8n(bins);
	await n8n.init();
	installPackage(n8n.userFolder);
	await n8n.importCredentials([
		{
			...API_CREDENTIAL,
			type: 'socialContentApi',
			data: { instanceUrl: sandboxUrl, apiKey: 'sk_sandbox_demo_key' },
		},
		{
			id: 'scriptedModel',
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model', url: modelUrl },
		},
	]);
	const toolNodes = tools.map(([name, parameters], index) => ({
		id: `tool-${index}`,
		name,
		type: TOOL,
		typeVersion: 1,
		position: [200 + index * 180, 240],
		parameters: { authentication: 'apiKey', ...parameters },
		credentials: { socialContentApi: API_CREDENTIAL },
	}));
	await n8n.importWorkflows([
		{
			id: 'e2eAgentTools',
			name: 'e2e agent with Social Content tools',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 'start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'agent',
					name: 'AI Agent',
					type: '@n8n/n8n-nodes-langchain.agent',
					typeVersion: 3.1,
					position: [240, 0],
					parameters: {
						promptType: 'define',
						text: 'Post "Hello from the agent" to our X channel now.',
						options: {},
					},
				},
				{
					id: 'model',
					name: 'OpenAI Chat Model',
					type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
					typeVersion: 1.3,
					position: [0, 240],
					parameters: {
						model: { __rl: true, mode: 'id', value: 'scripted' },
						responsesApiEnabled: false,
						options: {},
					},
					credentials: { openAiApi: { id: 'scriptedModel', name: 'Scripted model' } },
				},
				...toolNodes,
			],
			connections: {
				Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
				'OpenAI Chat Model': {
					ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
				},
				...Object.fromEntries(
					tools.map(([name]) => [
						name,
						{ ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
					]),
				),
			},
		},
	]);
}, 20 * 60_000);

afterAll(async () => {
	await model?.close();
	await sandbox?.close();
});

describe('an AI Agent using Social Content tools', () => {
	let results: string[] = [];
	let answer: unknown;

	beforeAll(async () => {
		const run = await n8n.execute('e2eAgentTools');
		answer = run.items('AI Agent')[0]?.json.output;
		results = model.toolResults();
	}, 10 * 60_000);

	test('the model is offered the tools by name, and the agent finishes with its answer', () => {
		expect(model.toolNames()).toEqual(
			expect.arrayContaining([
				'Create_a_post_in_Social_Content',
				'Start_a_generation_in_Social_Content',
				'Get_many_posts_in_Social_Content',
			]),
		);
		expect(results).toHaveLength(SCRIPT.length);
		expect(answer).toBe('Posted to Sandbox on X.');
	});

	test('an unknown channel: the message names the connected channels, with ids', () => {
		expect(results[0]).toMatch(/"threads"/);
		expect(results[0]).toContain('Sandbox on X');
		expect(results[0]).toContain('ch_x');
		expect(results[0]).not.toMatch(/is not connected/);
	});

	test('a date in words: the message asks for ISO 8601 with a zone and shows one', () => {
		expect(results[1]).toMatch(/ISO 8601/);
		expect(results[1]).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
	});

	test('a date in the past: the message gives the time now', () => {
		expect(results[2]).toMatch(/in the past/);
		expect(results[2]).toMatch(/it is now \d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
	});

	test('an unknown format: the message lists the format ids', () => {
		expect(results[3]).toMatch(/Unknown format "carousel"/);
		expect(results[3]).toContain('(image_fast)');
	});

	test('a channel given by its name: the post goes to it, and the model reads its id', () => {
		const posted = sandbox.state.posts.filter((post) =>
			JSON.stringify(post).includes('Hello from the agent'),
		);
		expect(posted).toHaveLength(1);
		expect(JSON.stringify(posted[0])).toContain('ch_x');
		expect(results[4]).toContain(String(posted[0].id));
	});

	test('past the instance’s posts per hour: the message gives the wait in plain units', () => {
		expect(results[5]).toMatch(/Rate limited.*try again in \d+ min/);
	});

	test('an empty list: the model reads that nothing was found, not an empty string', () => {
		expect(results[6]).toMatch(/"found":\s*0/);
		expect(results[6]).toMatch(/Nothing was found/);
	});

	test('no key or token reaches the model', () => {
		const sent = JSON.stringify(model.requests);
		expect(sent).not.toContain('sk_sandbox_demo_key');
		expect(sent).not.toContain('sk-scripted-model');
	});
});
