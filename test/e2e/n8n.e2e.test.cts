/**
 * End to end in a real n8n 2.x: the packed package installed as a community node, credentials
 * and workflows imported headlessly, workflows executed with `n8n execute` against the sandbox,
 * and the trigger activated for real in a running n8n.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	exampleWorkflows,
	ERROR_WORKFLOW,
	FAULT_WORKFLOW,
	OAUTH2_WORKFLOW,
	POSTS_SOON_WORKFLOW,
	REAL_BACKEND_WORKFLOW,
	RESOURCE_WORKFLOWS,
	WRONG_ADDRESS_CREDENTIAL,
} from './workflows.cjs';
import { expectEditorDropdowns, expectRecentPicks } from './editorCalls.cjs';
import { installN8n, installPackage, N8n } from './n8n.cjs';
import { waitFor } from '../helpers/waitFor.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox, FORMATS } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => Sandbox;
	FORMATS: Array<{ name: string }>;
};
interface Sandbox {
	config: IDataObject;
	state: IDataObject & {
		posts: IDataObject[];
		generations: IDataObject[];
		authHeaders: Array<string | null>;
		counts: IDataObject;
	};
	listen(port?: number): Promise<string>;
	close(): Promise<void>;
}

// Each test starts n8n or runs `n8n execute` (a whole n8n process): seconds on an idle machine,
// much more on a busy 2-core one. Generous, so a loaded CI machine is slow, not red.
jest.setTimeout(5 * 60_000);

const OAUTH_TOKEN = 'scapp_e2e_token_5f3a9c';
let n8n: N8n;
let sandbox: Sandbox;
let sandboxUrl: string;
const examples = exampleWorkflows();
const timings: Record<string, number> = {};

beforeAll(async () => {
	let started = Date.now();
	const bins = installN8n();
	timings.install = Date.now() - started;
	sandbox = createSandbox({ queuedMs: 100, runningMs: 400 });
	sandboxUrl = await sandbox.listen();
	(sandbox.state as unknown as { tokens: Map<string, IDataObject> }).tokens.set(OAUTH_TOKEN, {
		clientId: 'sandbox-client',
	});

	started = Date.now();
	n8n = new N8n(bins);
	await n8n.init();
	installPackage(n8n.userFolder);
	await n8n.importCredentials([
		{
			id: 'sandboxApiKey',
			name: 'Social Content (sandbox)',
			type: 'socialContentApi',
			data: { instanceUrl: `${sandboxUrl}/api/`, apiKey: 'sk_sandbox_demo_key' },
		},
		{
			...WRONG_ADDRESS_CREDENTIAL,
			type: 'socialContentApi',
			data: { instanceUrl: `${sandboxUrl}/dashboard`, apiKey: 'sk_sandbox_demo_key' },
		},
		{
			id: 'sandboxOAuth2',
			name: 'Social Content OAuth2 (sandbox)',
			type: 'socialContentOAuth2Api',
			data: {
				instanceUrl: sandboxUrl,
				clientId: 'sandbox-client',
				clientSecret: 'sandbox-secret',
				usePkce: true,
				oauthTokenData: { access_token: OAUTH_TOKEN, token_type: 'bearer' },
			},
		},
	]);
	await n8n.importWorkflows([
		...Object.values(RESOURCE_WORKFLOWS),
		REAL_BACKEND_WORKFLOW,
		OAUTH2_WORKFLOW,
		ERROR_WORKFLOW,
		FAULT_WORKFLOW,
		POSTS_SOON_WORKFLOW,
		...Object.values(examples),
	]);
	timings.setup = Date.now() - started;
}, 20 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	n8n?.cleanup();
	await sandbox?.close();
	// eslint-disable-next-line no-console
	console.info(`e2e timings (ms): ${JSON.stringify(timings)}`);
});

let serverApiKey: Promise<string> | undefined;
/** Starts n8n's server once, with its owner account; returns a public-API key. */
async function runningServer(): Promise<string> {
	serverApiKey ??= n8n.start().then(async () => await n8n.ownerApiKey());
	return await serverApiKey;
}

/**
 * Activates a workflow and waits for its activation polls: n8n activates in the background after
 * answering, so they are over once each trigger has read its list and n8n has saved the state.
 */
async function activateAndWait(
	apiKey: string,
	id: string,
	family: 'generations' | 'posts' = 'generations',
	triggers = 1,
): Promise<void> {
	const route = family === 'generations' ? 'GET /studio/generations' : 'GET /posts';
	const listReads = () => Number((sandbox.state.counts.byRoute as IDataObject)[route] ?? 0);
	const savedState = async () =>
		JSON.stringify((await n8n.publicApi(apiKey, 'GET', `/workflows/${id}`)).staticData ?? {});
	const before = { reads: listReads(), state: await savedState() };
	await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
	const deadline = Date.now() + 90_000;
	while (Date.now() < deadline) {
		if (listReads() >= before.reads + triggers) {
			const state = await savedState();
			if (state !== before.state && state.includes(`"${family}"`)) return;
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`the activation poll of ${id} did not happen within 90 s`);
}

async function execute(id: string) {
	const started = Date.now();
	const result = await n8n.execute(id);
	timings[id] = Date.now() - started;
	// Nothing n8n printed or kept of the run may contain the key or a token.
	for (const secret of ['sk_sandbox_demo_key', OAUTH_TOKEN, 'sandbox-secret'])
		expect(result.raw).not.toContain(secret);
	return result;
}

describe('in a real n8n, against the sandbox', () => {
	test('account: check connection and brand profile', async () => {
		const run = await execute('e2eAccount');
		expect(run.items('Check Connection')[0].json).toMatchObject({
			ok: true,
			organization: { name: 'Sandbox Org' },
		});
		expect(run.items('Get Brand Profile')[0].json).toEqual({ found: false });
	});

	test('hook: score and generate', async () => {
		const run = await execute('e2eHook');
		expect(run.items('Score')[0].json).toMatchObject({ benchmark: { estimated: true } });
		expect(run.items('Generate').map((item) => item.json.hook)).toEqual([
			'Hook 1 about coffee',
			'Hook 2 about coffee',
			'Hook 3 about coffee',
		]);
	});

	test('studio: formats, start (wait, download), get (download), list, credits', async () => {
		const run = await execute('e2eStudio');
		expect(run.items('List Formats')).toHaveLength(8);
		const [started] = run.items('Start Generation');
		expect(started.json).toMatchObject({ status: 'done', credits: 5 });
		// The captions reached the service as the entries typed, commas kept inside an entry.
		expect(sandbox.state.generations.find((g) => g.id === started.json.id)?.input).toEqual({
			hook: '5 habits',
			captions: ['Intro', 'Mistake one, and two', 'Outro'],
		});
		expect(Object.keys(started.binary ?? {})).toEqual(['output_0', 'output_1', 'output_2']);
		expect(run.items('Get Generation')[0].json).toMatchObject({
			id: started.json.id,
			status: 'done',
		});
		expect(Object.keys(run.items('Get Generation')[0].binary ?? {})).toHaveLength(3);
		expect(run.items('List Generations').map((item) => item.json.id)).toContain(started.json.id);
		expect(run.items('Get Credits')[0].json).toEqual({ credits: 95 });
	});

	test('channel: list, connect URL, is connected, analytics, post analytics, disconnect', async () => {
		const run = await execute('e2eChannel');
		expect(run.items('List Channels').map((item) => item.json.id)).toEqual([
			'ch_x',
			'ch_linkedin',
			'ch_instagram',
		]);
		expect(run.items('Get Connect URL')[0].json).toMatchObject({
			provider: 'linkedin',
			url: expect.stringContaining('/connect/linkedin'),
		});
		expect(run.items('Is Connected')[0].json).toEqual({ connected: true });
		expect(run.items('Get Analytics')[0].json).toMatchObject({ label: 'Impressions' });
		expect(run.items('Get Post Analytics')).toHaveLength(2);
		expect(run.items('Disconnect')[0].json).toMatchObject({
			id: 'ch_instagram',
			disconnected: true,
		});
	});

	test('media: import from URL and list', async () => {
		const run = await execute('e2eMedia');
		const [imported] = run.items('Import From URL');
		expect(imported.json).toMatchObject({
			id: expect.any(String),
			path: expect.stringMatching(/^\/uploads\//),
		});
		expect(run.items('List Media').map((item) => item.json.id)).toContain(imported.json.id);
	});

	test('post: create on two channels, list, find a free slot, delete the group', async () => {
		const before = sandbox.state.counts.postsCreated as number;
		const run = await execute('e2ePost');
		expect(run.items('Create Post').map((item) => item.json.integration)).toEqual([
			'ch_x',
			'ch_linkedin',
		]);
		expect(
			run.items('List Posts').map((item) => (item.json.settings as IDataObject).__type),
		).toEqual(['x', 'linkedin']);
		expect(String(run.items('Find Free Slot')[0].json.date)).toMatch(/Z$/);
		expect(run.items('Delete Post')[0].json).toMatchObject({ deleted: true });
		expect((sandbox.state.counts.postsCreated as number) - before).toBe(2);
	});

	test('real backend: Post → Create with Tags, a file and X creates the post with tag objects; Delete and Disconnect say so, no token in n8n', async () => {
		sandbox.config.profile = 'postiz';
		(sandbox.state.channels as IDataObject[]).push({
			id: 'ch_tiktok',
			name: 'Sandbox on TikTok',
			identifier: 'tiktok',
			picture: '/uploads/avatar.png',
			disabled: false,
		});
		try {
			const postsBefore = (sandbox.state.counts.postsCreated as number) ?? 0;
			const run = await execute('e2eRealBackend');
			const [created] = run.items('Create Post');
			expect(created.json).toMatchObject({ postId: expect.any(String), integration: 'ch_x' });
			expect((sandbox.state.counts.postsCreated as number) - postsBefore).toBe(1);
			expect(run.items('Delete Post')[0].json).toEqual({ id: created.json.postId, deleted: true });
			expect(run.items('Disconnect')[0].json).toEqual({ id: 'ch_tiktok', disconnected: true });
			// What the sandbox received: the tags as objects and the uploaded file.
			const sent = sandbox.state.lastPostBody as IDataObject;
			expect(sent.tags).toEqual([
				{ value: 'launch', label: 'launch' },
				{ value: 'news', label: 'news' },
			]);
			const [part] = (sent.posts as IDataObject[])[0].value as IDataObject[];
			expect(part.image).toEqual([
				expect.objectContaining({ path: expect.stringContaining('checklist.txt') }),
			]);
			// The Disconnect answer carried the channel's OAuth tokens; n8n kept none of them.
			expect(run.raw).not.toContain('oauth-access-ch_tiktok-secret');
			expect(run.raw).not.toContain('oauth-refresh-ch_tiktok-secret');
			expect(run.raw).not.toContain('instance-login-ch_tiktok-secret');
		} finally {
			sandbox.config.profile = 'spec';
		}
	});

	test('example: attach the incoming file to a scheduled post (uploaded by the post, no expression)', async () => {
		const uploadsBefore = sandbox.state.counts.uploads as number;
		const run = await execute(examples['upload-then-schedule-post.json'].id as string);
		expect(run.items('Schedule Post')[0].json).toMatchObject({
			postId: expect.any(String),
			integration: 'ch_linkedin',
		});
		expect((sandbox.state.counts.uploads as number) - uploadsBefore).toBe(1);
		const [image] = (sandbox.state.posts.at(-1)?.image ?? []) as IDataObject[];
		expect(image.path).toEqual(expect.stringContaining('checklist.txt'));
	});

	test('example: score a hook, then generate more', async () => {
		const run = await execute(examples['score-then-generate-hooks.json'].id as string);
		expect(run.items('Generate Hooks')).toHaveLength(3);
	});

	test('example: generate an image, wait, and post it to X and LinkedIn (no expression typed)', async () => {
		const run = await execute(examples['generate-wait-and-post.json'].id as string);
		const [generated] = run.items('Generate Image');
		expect(generated.json).toMatchObject({ status: 'done', format: 'image_fast' });
		expect(run.items('Post to X and LinkedIn')).toHaveLength(2);
		const output = (generated.json.outputs as IDataObject[])[0];
		const posted = sandbox.state.posts.slice(-2);
		expect(posted.map((post) => post.integration)).toEqual(['ch_x', 'ch_linkedin']);
		expect(posted[0]).toMatchObject({ type: 'now' });
		for (const post of posted) expect(post.image).toEqual([{ id: output.id, path: output.path }]);
		expect(JSON.parse(String(posted[0].settings))).toEqual({
			who_can_reply_post: 'everyone',
			__type: 'x',
		});
	});

	test('OAuth2 credential: the sandbox receives the token raw, without Bearer', async () => {
		const run = await execute('e2eOAuth2');
		expect(run.items('Check Connection')[0].json).toMatchObject({ ok: true });
		expect(sandbox.state.authHeaders).toContain(OAUTH_TOKEN);
		expect(sandbox.state.authHeaders.filter((header) => /bearer/i.test(String(header)))).toEqual(
			[],
		);
	});

	test('continueOnFail in n8n: a 404 becomes an error item with the message', async () => {
		const run = await execute('e2eErrors');
		expect(run.items('Get Missing Generation')[0].json).toEqual({
			error: 'Not found: GET /studio/generations/gen_missing (404): generation not found',
		});
	});

	test('faults in n8n: a 502 page and a reset on a read are retried, malformed JSON is an error item, a 429 is waited out', async () => {
		const faults = sandbox.state.faults as unknown as IDataObject[];
		faults.push(
			{ path: '/agents/ping', kind: 'html500', count: 1 },
			{ path: '/agents/ping', kind: 'reset', count: 1 },
		);
		faults.push({ path: '/brand', kind: 'malformed', count: 1 });
		faults.push({
			path: '/hooks/score',
			kind: 'status',
			status: 429,
			body: { code: 'RATE_LIMITED', bucket: 'hooks', limit: 20, retryAfter: 0.5 },
			count: 2,
		});
		const run = await execute('e2eFaults');
		expect(run.items('Check Connection')[0].json).toMatchObject({ ok: true });
		expect(run.items('Get Brand Profile')[0].json).toEqual({
			error:
				"The service's answer could not be read safely (JSON that does not parse); nothing from it is shown",
		});
		expect(run.items('Score')[0].json).toMatchObject({ score: expect.any(Number) });
		expect(faults).toEqual([]);
	});

	test("editor: a picked format's inputs load as fields through n8n's server, the way the panel asks for them", async () => {
		await runningServer();
		await expectEditorDropdowns(n8n);
		// Earlier tests made generations and posts: the pickers name them as the lists do.
		await expectRecentPicks(
			n8n,
			FORMATS.map((format) => format.name),
		);
	});

	test('trigger: activated for real, it fires after a generation finishes and the post goes out', async () => {
		const apiKey = await runningServer();
		const id = examples['generation-finished-post.json'].id as string;
		const postsBefore = sandbox.state.posts.length;
		await activateAndWait(apiKey, id); // first poll: the baseline
		expect(sandbox.state.posts.length).toBe(postsBefore);

		const headers = { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' };
		const started = (await (
			await fetch(`${sandboxUrl}/api/public/v1/studio/generations`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ formatId: 'wall_of_text', input: { hook: 'e2e' } }),
			})
		).json()) as IDataObject;
		await fetch(`${sandboxUrl}/__sandbox/finish`, { method: 'POST' });

		// Activation polls at once; re-activating makes the next poll happen now instead of in a minute.
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
		const deadline = Date.now() + 60_000;
		while (sandbox.state.posts.length < postsBefore + 2 && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 500));
		const posted = sandbox.state.posts.slice(postsBefore);
		expect(posted.map((post) => post.integration)).toEqual(['ch_x', 'ch_linkedin']);
		expect(String(posted[0].content)).toBe('Fresh from the studio: wall_of_text');
		const generation = sandbox.state.generations.find((g) => g.id === started.id)!;
		expect((generation.outputs as IDataObject[]).length).toBe(1);

		// Once only: another re-activation does not post again.
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		await activateAndWait(apiKey, id);
		expect(sandbox.state.posts.length).toBe(postsBefore + 2);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
	}, 180_000);

	test('post events: two posts scheduled through the node; when due one goes out and one fails; the example tells the team once, with the link, and alerts once', async () => {
		const apiKey = await runningServer();
		const id = examples['post-published-or-failed.json'].id as string;
		await activateAndWait(apiKey, id, 'posts', 2); // the baseline: the posts of earlier tests do not fire
		const successes = await n8n.executions(apiKey, id, 'success');
		const errors = await n8n.executions(apiKey, id, 'error');

		const run = await execute(POSTS_SOON_WORKFLOW.id as string);
		const live = String(run.items('Schedule Post')[0].json.postId);
		const failing = String(run.items('Schedule Failing Post')[0].json.postId);
		const outcome = (postId: string) =>
			sandbox.state.posts.find((post) => post.id === postId)?.status;
		// The sandbox sends them when due and a list read comes; re-activating polls at once instead of in a minute.
		const deadline = Date.now() + 120_000;
		let newSuccesses: IDataObject[] = [];
		let newErrors: IDataObject[] = [];
		while (Date.now() < deadline) {
			newSuccesses = (await n8n.executions(apiKey, id, 'success')).slice(
				0,
				-successes.length || undefined,
			);
			newErrors = (await n8n.executions(apiKey, id, 'error')).slice(0, -errors.length || undefined);
			if (newSuccesses.length >= 1 && newErrors.length >= 1) break;
			if (outcome(live) === 'scheduled' || outcome(failing) === 'scheduled')
				await fetch(
					`${sandboxUrl}/api/public/v1/posts?startDate=2000-01-01T00:00:00Z&endDate=2100-01-01T00:00:00Z`,
					{ headers: { Authorization: 'sk_sandbox_demo_key' } },
				);
			else {
				await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
				await activateAndWait(apiKey, id, 'posts', 2);
			}
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		expect([outcome(live), outcome(failing)]).toEqual(['published', 'failed']);
		const output = (execution: IDataObject, node: string) =>
			(
				((execution.data as IDataObject).resultData as IDataObject).runData as Record<
					string,
					Array<{ data?: { main: Array<Array<{ json: IDataObject }>> } }>
				>
			)[node]?.[0]?.data?.main[0] ?? [];
		expect(
			newSuccesses.map((execution) =>
				output(execution, 'Message With the Link').map((item) => item.json.message),
			),
		).toEqual([[`Live on Sandbox on X: https://x.example.com/p/${live}`]]);
		expect(newErrors).toHaveLength(1);
		expect(JSON.stringify(newErrors[0].data)).toContain(
			`Post ${failing} on Sandbox on LinkedIn failed: The network refused the post`,
		);

		// Once only: re-activated again, nothing new fires.
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		await activateAndWait(apiKey, id, 'posts', 2);
		await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		expect((await n8n.executions(apiKey, id, 'success')).length).toBe(successes.length + 1);
		expect((await n8n.executions(apiKey, id, 'error')).length).toBe(errors.length + 1);
	}, 300_000);

	test('trigger for a year in one minute: no timestamps, out-of-order, n8n restarted during an outage, re-activated: each generation posts once', async () => {
		const apiKey = await runningServer();
		const id = examples['generation-finished-post.json'].id as string;
		Object.assign(sandbox.config, { generationTimestamps: false, queuedMs: 1e9 });
		const headers = { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' };
		const start = async () =>
			String(
				(
					(await (
						await fetch(`${sandboxUrl}/api/public/v1/studio/generations`, {
							method: 'POST',
							headers,
							body: JSON.stringify({ formatId: 'wall_of_text', input: { hook: 'year' } }),
						})
					).json()) as IDataObject
				).id,
			);
		const finish = async (ids: string[]) =>
			await fetch(`${sandboxUrl}/__sandbox/finish`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ ids }),
			});
		const postsFor = (generationIds: string[]) =>
			sandbox.state.posts.filter((post) =>
				generationIds.some((generation) => JSON.stringify(post.image ?? post).includes(generation)),
			).length;
		try {
			const older = await start();
			const newer = await start();
			await activateAndWait(apiKey, id); // baseline: both pending
			await finish([newer]);
			await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
			await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/activate`);
			await waitFor(() => postsFor([newer]) >= 2, { deadlineMs: 60_000, everyMs: 500 });
			expect([postsFor([newer]), postsFor([older])]).toEqual([2, 0]);

			// n8n stops; the older one finishes meanwhile; n8n starts while the list answers 500.
			await n8n.stop();
			await finish([older]);
			(sandbox.state.faults as IDataObject[]).push({
				kind: 'status',
				status: 500,
				method: 'GET',
				path: 'studio/generations$',
				count: 3,
			});
			await n8n.start(); // same database: the workflow, its static data and the API key survive
			// The poll at start-up failed; the trigger stayed scheduled and the next minute's poll posts it.
			await waitFor(() => postsFor([older]) >= 2, { deadlineMs: 130_000, everyMs: 500 });
			expect(sandbox.state.faults).toEqual([]); // all three tries of the start-up poll got the 500
			expect([postsFor([newer]), postsFor([older])]).toEqual([2, 2]);

			await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
			await activateAndWait(apiKey, id);
			expect([postsFor([newer]), postsFor([older])]).toEqual([2, 2]);
			await n8n.publicApi(apiKey, 'POST', `/workflows/${id}/deactivate`);
		} finally {
			Object.assign(sandbox.config, { generationTimestamps: true, queuedMs: 100 });
		}
	}, 300_000);

	test("credential test in n8n's UI flow: a pasted /api passes, a web page or a redirect elsewhere fails with our message (naming the address to use), a wrong key fails", async () => {
		await runningServer();
		const base = `http://localhost:${n8n.port}`;
		const login = await fetch(`${base}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				emailOrLdapLoginId: 'owner@example.com',
				password: 'Sandbox-Passw0rd',
			}),
		});
		const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
		const test = async (instanceUrl: string, apiKey = 'sk_sandbox_demo_key') => {
			const response = await fetch(`${base}/rest/credentials/test`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Cookie: cookie },
				body: JSON.stringify({
					credentials: {
						id: 'sandboxApiKey',
						name: 'test',
						type: 'socialContentApi',
						data: { instanceUrl, apiKey },
					},
				}),
			});
			return ((await response.json()) as { data: IDataObject }).data;
		};
		expect(await test(`${sandboxUrl}/api/`)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await test(`${sandboxUrl}/login`)).toEqual({
			status: 'Error',
			message:
				"The Instance URL did not answer with the API's JSON (a web page or a broken answer). Use the address of your instance, e.g. https://app.example.com",
		});
		expect((await test(sandboxUrl, 'sk_wrong_key_000')).status).toBe('Error');
		// An instance that redirects to another origin (here 127.0.0.1 → localhost): n8n would carry
		// the key there; the test fails instead, saying what to do, and the key never arrives there.
		const moved = sandboxUrl.replace('127.0.0.1', 'localhost');
		(sandbox.state.faults as IDataObject[]).push({
			path: '/agents/ping',
			kind: 'redirect',
			status: 301,
			location: `${moved}/api/public/v1/agents/ping`,
			count: 1,
		});
		const headersBefore = sandbox.state.authHeaders.length;
		// The credential's preAuthentication asks first, without the key, and names the address.
		expect(await test(sandboxUrl)).toEqual({
			status: 'Error',
			message: `The Instance URL redirects (HTTP 301) to ${moved}/api/public/v1/agents/ping, another address, where the key is not sent. Set the Instance URL to ${moved}.`,
		});
		expect(sandbox.state.authHeaders.length).toBe(headersBefore);
	}, 120_000);

	test('OAuth2 connect flow through n8n: authorization code with PKCE S256, token request form-urlencoded, raw token used', async () => {
		await runningServer();
		// n8n's OAuth callback URL names localhost, so the session cookie must be for localhost too.
		const base = `http://localhost:${n8n.port}`;
		const login = await fetch(`${base}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				emailOrLdapLoginId: 'owner@example.com',
				password: 'Sandbox-Passw0rd',
			}),
		});
		expect(login.status).toBe(200);
		const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
		const auth = (await (
			await fetch(`${base}/rest/oauth2-credential/auth?id=sandboxOAuth2`, {
				headers: { Cookie: cookie },
			})
		).json()) as { data: string };
		const authorizeUrl = new URL(auth.data);
		expect(authorizeUrl.pathname).toBe('/oauth/authorize');
		expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
		const approved = await fetch(authorizeUrl, { redirect: 'manual' });
		const callback = approved.headers.get('location')!;
		expect(callback).toContain('/rest/oauth2-credential/callback?code=');
		const page = await (await fetch(callback, { headers: { Cookie: cookie } })).text();
		expect(page).not.toContain('Failed to connect');
		const tokens = [
			...(sandbox.state as unknown as { tokens: Map<string, IDataObject> }).tokens.keys(),
		];
		const issued = tokens.find((token) => token !== OAUTH_TOKEN);
		expect(issued).toMatch(/^scapp_/);
		expect((sandbox.state as unknown as { tokenRequests: IDataObject[] }).tokenRequests).toEqual([
			{ contentType: 'application/x-www-form-urlencoded', clientInBody: true, codeVerifier: true },
		]);

		const run = await execute('e2eOAuth2');
		expect(run.items('Check Connection')[0].json).toMatchObject({ ok: true });
		expect(sandbox.state.authHeaders.at(-1)).toBe(issued);
	}, 120_000);
});
