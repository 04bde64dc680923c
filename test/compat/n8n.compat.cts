/**
 * The short end-to-end set run against another n8n version: `npm run test:compat -- <version>`
 * (scripts/test-compat.js installs that n8n into the e2e cache and runs this file). Ping, score,
 * start + wait + download, a file uploaded and posted, the editor's dropdowns and Format Inputs
 * loaded through the server, and the trigger activated for real and firing once. Not part of `npm test`: each version is a 3 GB install.
 */
import type { IDataObject } from 'n8n-workflow';

import { expectEditorDropdowns } from '../e2e/editorCalls.cjs';
import { exampleWorkflows, RESOURCE_WORKFLOWS } from '../e2e/workflows.cjs';
import { installN8n, installPackage, N8n } from '../e2e/n8n.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => {
		state: IDataObject & { posts: IDataObject[]; counts: IDataObject };
		listen(): Promise<string>;
		close(): Promise<void>;
	};
};

const VERSION = process.env.N8N_VERSION ?? '2.41.1';
let n8n: N8n;
let sandbox: ReturnType<typeof createSandbox>;
let sandboxUrl: string;
const examples = exampleWorkflows();

beforeAll(async () => {
	const bins = installN8n();
	sandbox = createSandbox({ queuedMs: 100, runningMs: 400 });
	sandboxUrl = await sandbox.listen();
	n8n = new N8n(bins);
	await n8n.init();
	installPackage(n8n.userFolder);
	await n8n.importCredentials([
		{
			id: 'sandboxApiKey',
			name: 'Social Content (sandbox)',
			type: 'socialContentApi',
			data: { instanceUrl: sandboxUrl, apiKey: 'sk_sandbox_demo_key' },
		},
	]);
	await n8n.importWorkflows([
		RESOURCE_WORKFLOWS.account,
		RESOURCE_WORKFLOWS.studio,
		...Object.values(examples),
	]);
}, 30 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	n8n?.cleanup();
	await sandbox?.close();
});

let apiKeyOfServer: Promise<string> | undefined;
/** Starts n8n's server once, with its owner account; returns a public-API key. */
async function running(): Promise<string> {
	apiKeyOfServer ??= n8n.start().then(async () => await n8n.ownerApiKey());
	return await apiKeyOfServer;
}

describe(`n8n ${VERSION}`, () => {
	test('ping: Check Connection', async () => {
		const run = await n8n.execute('e2eAccount');
		expect(run.items('Check Connection')[0].json).toMatchObject({ ok: true });
	});

	test('score: Hook → Score, then Generate (example)', async () => {
		const run = await n8n.execute(examples['score-then-generate-hooks.json'].id as string);
		expect(run.items('Generate Hooks')).toHaveLength(3);
	});

	test('start + wait + download: Start Generation, Get Generation with its files', async () => {
		const run = await n8n.execute('e2eStudio');
		const [started] = run.items('Start Generation');
		expect(started.json).toMatchObject({ status: 'done', credits: 5 });
		expect(Object.keys(started.binary ?? {})).toEqual(['output_0', 'output_1', 'output_2']);
		expect(Object.keys(run.items('Get Generation')[0].binary ?? {})).toHaveLength(3);
	});

	test('an image generated, waited for and posted to X and LinkedIn, no expression (example)', async () => {
		const run = await n8n.execute(examples['generate-wait-and-post.json'].id as string);
		expect(run.items('Generate Image')[0].json).toMatchObject({ status: 'done' });
		expect(run.items('Post to X and LinkedIn')).toHaveLength(2);
	});

	test('upload + post: the incoming file uploaded and attached (example)', async () => {
		const uploadsBefore = sandbox.state.counts.uploads as number;
		const run = await n8n.execute(examples['upload-then-schedule-post.json'].id as string);
		expect(run.items('Schedule Post')[0].json).toMatchObject({ postId: expect.any(String) });
		expect((sandbox.state.counts.uploads as number) - uploadsBefore).toBe(1);
	});

	test('editor: Format Inputs, the format list and the setting targets load through the server', async () => {
		await running();
		await expectEditorDropdowns(n8n);
	});

	test('trigger: activated in a running n8n, fires once for a finished generation', async () => {
		const apiKey = await running();
		const id = examples['generation-finished-post.json'].id as string;
		const before = sandbox.state.posts.length;
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(sandbox.state.posts.length).toBe(before);

		const headers = { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' };
		await fetch(`${sandboxUrl}/api/public/v1/studio/generations`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ formatId: 'wall_of_text', input: { hook: 'compat' } }),
		});
		await fetch(`${sandboxUrl}/__sandbox/finish`, { method: 'POST' });
		// Re-activating polls at once instead of at the next minute.
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
		const deadline = Date.now() + 90_000;
		while (sandbox.state.posts.length < before + 2 && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 500));
		expect(sandbox.state.posts.slice(before).map((post) => post.integration)).toEqual([
			'ch_x',
			'ch_linkedin',
		]);

		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(sandbox.state.posts.length).toBe(before + 2);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
	}, 180_000);
});
