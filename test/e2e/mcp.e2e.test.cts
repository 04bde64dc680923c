/**
 * Social Content's operations as MCP tools, in a real n8n: its MCP Server Trigger serves them, and
 * the official MCP SDK client calls them over Streamable HTTP (and lists them over SSE), as an MCP
 * client (Claude Desktop, an IDE) would. Checked: every tool listed with its parameters; a call
 * that works; each refusal an `isError` result whose text says what to send instead (an unknown
 * channel, a private address, a rate limit, a revoked key); a generation longer than a client
 * waits returns its id within the tool's bound, started once.
 */
import type { IDataObject } from 'n8n-workflow';

import { TOOL_CALL_BOUND_MS } from '../../nodes/SocialContent/actions/fields/parameters';
import { N8n, installN8n, installPackage } from './n8n.cjs';
import { API_CREDENTIAL } from './workflows.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const { Client } =
	require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } =
	require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { SSEClientTransport } =
	require('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js');
const { createSandbox } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => {
		state: { posts: IDataObject[]; generations: IDataObject[]; counts: IDataObject };
		listen(port?: number): Promise<string>;
		close(): Promise<void>;
	};
};
/* eslint-enable @typescript-eslint/no-require-imports */

jest.setTimeout(5 * 60_000);

const TOOL = 'n8n-nodes-social-content.socialContentTool';
const WORKFLOW_ID = 'e2eMcpTools';
const MCP_PATH = 'social-content';
const REVOKED = { id: 'revokedKey', name: 'Revoked key' };
const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;

/** The tools: the node's operations, named as the editor names them when added. */
const tools: Array<[string, IDataObject, { id: string; name: string }?]> = [
	['Get many channels in Social Content', { resource: 'channel', operation: 'list' }],
	[
		'Create a post in Social Content',
		{
			resource: 'post',
			operation: 'create',
			type: 'now',
			channels: fromAI('channels', 'Channel ids or exact names, comma-separated'),
			content: { parts: [{ text: fromAI('text', 'The text of the post') }] },
		},
	],
	[
		'Import media from a URL in Social Content',
		{ resource: 'media', operation: 'importFromUrl', url: fromAI('url', 'A public file URL') },
	],
	[
		'Start a generation in Social Content',
		{
			resource: 'studio',
			operation: 'startGeneration',
			format: { __rl: true, mode: 'id', value: fromAI('format', 'The format id') },
			inputMode: 'json',
			inputJson: '{"prompt": "a red bicycle"}',
			options: { maxCredits: 50 },
		},
	],
	['Get credits in Social Content', { resource: 'studio', operation: 'getCredits' }, REVOKED],
];

type CallResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };
const textOf = (result: CallResult) => result.content.map((part) => part.text ?? '').join('\n');

let n8n: N8n;
let sandbox: ReturnType<typeof createSandbox>;
let client: InstanceType<typeof Client>;

beforeAll(async () => {
	const bins = installN8n();
	// The open-source backend's answers, one post an hour (its API_LIMIT), generations that run
	// longer than any MCP client waits.
	sandbox = createSandbox({ profile: 'postiz', postsPerHour: 1, queuedMs: 50, runningMs: 600_000 });
	const sandboxUrl = await sandbox.listen();
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
			...REVOKED,
			type: 'socialContentApi',
			data: { instanceUrl: sandboxUrl, apiKey: 'sk_revoked' },
		},
	]);
	await n8n.importWorkflows([
		{
			id: WORKFLOW_ID,
			name: 'e2e MCP server with Social Content tools',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 'mcp',
					name: 'MCP Server Trigger',
					type: '@n8n/n8n-nodes-langchain.mcpTrigger',
					typeVersion: 2.1,
					position: [0, 0],
					webhookId: 'e2e-mcp-social-content',
					parameters: { authentication: 'none', path: MCP_PATH },
				},
				...tools.map(([name, parameters, credential], index) => ({
					id: `tool-${index}`,
					name,
					type: TOOL,
					typeVersion: 1,
					position: [index * 180, 240],
					parameters: { authentication: 'apiKey', ...parameters },
					credentials: { socialContentApi: credential ?? API_CREDENTIAL },
				})),
			],
			connections: Object.fromEntries(
				tools.map(([name]) => [
					name,
					{ ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
				]),
			),
		},
	]);
	await n8n.start();
	const apiKey = await n8n.ownerApiKey();
	await n8n.publicApi(apiKey, 'POST', `/workflows/${WORKFLOW_ID}/activate`);
	client = await connected();
}, 20 * 60_000);

afterAll(async () => {
	await client?.close();
	await n8n?.stop();
	await sandbox?.close();
});

/** A client connected over Streamable HTTP, once n8n serves the path (a moment after activation). */
async function connected(): Promise<InstanceType<typeof Client>> {
	const url = new URL(`${n8n.url}/mcp/${MCP_PATH}`);
	for (let attempt = 0; ; attempt++) {
		const candidate = new Client({ name: 'e2e', version: '1.0.0' });
		try {
			await candidate.connect(new StreamableHTTPClientTransport(url));
			return candidate;
		} catch (error) {
			if (attempt >= 60) throw error;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
}

const call = async (name: string, args: IDataObject = {}) =>
	(await client.callTool({ name, arguments: args }, undefined, {
		timeout: 60_000,
	})) as CallResult;

test('every tool is listed, with the parameters left to the caller', async () => {
	const listed = (await client.listTools()).tools;
	expect(listed.map((tool) => tool.name).sort()).toEqual(
		[
			'Create_a_post_in_Social_Content',
			'Get_credits_in_Social_Content',
			'Get_many_channels_in_Social_Content',
			'Import_media_from_a_URL_in_Social_Content',
			'Start_a_generation_in_Social_Content',
		].sort(),
	);
	const post = listed.find((tool) => tool.name === 'Create_a_post_in_Social_Content');
	expect(Object.keys(post?.inputSchema.properties ?? {}).sort()).toEqual(['channels', 'text']);
});

test('a call that works: the channels, as the caller reads them', async () => {
	const result = await call('Get_many_channels_in_Social_Content');
	expect(result.isError).toBeFalsy();
	expect(textOf(result)).toContain('ch_x');
});

test('an unknown channel: refused, naming the connected channels to send instead; nothing posted', async () => {
	const result = await call('Create_a_post_in_Social_Content', { channels: 'threads', text: 'Hi' });
	expect(result.isError).toBe(true);
	expect(textOf(result)).toMatch(
		/"threads" is none of the connected channels: .*\(ch_x\).*Give a channel's id or exact name\./,
	);
	expect(sandbox.state.posts).toHaveLength(0);
});

test('a private address to import: refused, saying to upload the file instead; nothing sent', async () => {
	const imports = () =>
		Number((sandbox.state.counts.byRoute as IDataObject)['POST /upload-from-url'] ?? 0);
	const before = imports();
	const result = await call('Import_media_from_a_URL_in_Social_Content', {
		url: 'http://127.0.0.1:8080/secret.png',
	});
	expect(result.isError).toBe(true);
	expect(textOf(result)).toMatch(/not a public address/);
	expect(textOf(result)).toMatch(/operation "upload"/);
	expect(imports()).toBe(before);
});

test('a post, then one past the instance’s posts per hour: the second is refused with the wait', async () => {
	const first = await call('Create_a_post_in_Social_Content', {
		channels: 'Sandbox on X',
		text: 'Hello',
	});
	expect(first.isError).toBeFalsy();
	const second = await call('Create_a_post_in_Social_Content', { channels: 'ch_x', text: 'Again' });
	expect(second.isError).toBe(true);
	expect(textOf(second)).toMatch(/Rate limited.*try again in \d+ min/);
	expect(sandbox.state.posts).toHaveLength(1);
});

test('a revoked key: refused, saying to check the key or reconnect', async () => {
	const result = await call('Get_credits_in_Social_Content');
	expect(result.isError).toBe(true);
	expect(textOf(result)).toMatch(/rejected the API key: it is wrong, or was revoked/);
	expect(textOf(result)).not.toContain('sk_revoked');
});

test('a generation longer than a client waits: its id and what to call next, within the bound, started once', async () => {
	const startedAt = Date.now();
	const result = await call('Start_a_generation_in_Social_Content', { format: 'image_fast' });
	const tookMs = Date.now() - startedAt;
	expect(result.isError).toBeFalsy();
	const generations = sandbox.state.generations;
	expect(generations).toHaveLength(1);
	expect(textOf(result)).toContain(String(generations[0].id));
	expect(textOf(result)).toMatch(/Get Generation/);
	// Returned at the tool's bound (no fixed sleep here: the call itself is the event).
	expect(tookMs).toBeGreaterThanOrEqual(TOOL_CALL_BOUND_MS - 1000);
	expect(tookMs).toBeLessThan(60_000);
});

test('over SSE as well: the same tools, and a call', async () => {
	const sse = new Client({ name: 'e2e-sse', version: '1.0.0' });
	await sse.connect(new SSEClientTransport(new URL(`${n8n.url}/mcp/${MCP_PATH}`)));
	try {
		expect((await sse.listTools()).tools).toHaveLength(tools.length);
		const result = (await sse.callTool({
			name: 'Get_many_channels_in_Social_Content',
			arguments: {},
		})) as CallResult;
		expect(textOf(result)).toContain('ch_x');
	} finally {
		await sse.close();
	}
});
