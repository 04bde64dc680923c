/**
 * The trigger in a real n8n 2.41.1, once per poll engine: classic; the durable scheduler
 * (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED); and the durable scheduler with
 * durable cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED). Each engine gets its own n8n and sandbox,
 * run side by side (n8n polls once a minute; they mostly wait). The sandbox lists generations with
 * no time fields at all, the hardest answer the spec allows. Each fire posts the generation's id,
 * so the sandbox's posts are the count.
 */
import type { IDataObject } from 'n8n-workflow';

import { installN8n, installPackage, N8n } from './n8n.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../sandbox/server.js') as {
	createSandbox: (options?: IDataObject) => Sandbox;
};
interface Sandbox {
	config: IDataObject;
	state: IDataObject & { posts: IDataObject[]; faults: IDataObject[] };
	listen(port?: number): Promise<string>;
	close(): Promise<void>;
}

type Engine = 'classic' | 'durable scheduler' | 'durable scheduler + cursors';
const ENGINE_SETTINGS: Record<Engine, IDataObject> = {
	classic: {},
	'durable scheduler': {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	},
	'durable scheduler + cursors': {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	},
};
const ENGINES = Object.keys(ENGINE_SETTINGS) as Engine[];

// n8n polls once a minute; each engine's timeline takes about ten of them, more on a busy machine.
jest.setTimeout(30 * 60_000);

const KEY = 'sk_sandbox_demo_key';
/** Finished before activation: more than the activation record holds (1,000 ids), a prime. */
const OLD_AT_ACTIVATION = 1009;
const WORKFLOW_ID = 'scTriggerEngines';
const instances = new Map<Engine, { n8n: N8n; sandbox: Sandbox; url: string }>();
const printed: string[] = [];

const workflow = {
	id: WORKFLOW_ID,
	name: 'e2e trigger engines',
	nodes: [
		{
			id: 'engine-trigger',
			name: 'When a Generation Finishes',
			type: 'n8n-nodes-social-content.socialContentTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				events: ['done'],
				downloadOutputs: true,
				pollTimes: { item: [{ mode: 'everyMinute' }] },
			},
			credentials: { socialContentApi: { id: 'sandboxApiKey', name: 'Social Content (sandbox)' } },
		},
		{
			id: 'engine-post',
			name: 'Post its id',
			type: 'n8n-nodes-social-content.socialContent',
			typeVersion: 1,
			position: [220, 0],
			parameters: {
				resource: 'post',
				operation: 'create',
				type: 'now',
				channels: ['ch_x'],
				content: {
					parts: [{ text: "=fired {{ $json.id }} {{ $json.error ? 'with error' : 'ok' }}" }],
				},
			},
			credentials: { socialContentApi: { id: 'sandboxApiKey', name: 'Social Content (sandbox)' } },
		},
	],
	connections: {
		'When a Generation Finishes': { main: [[{ node: 'Post its id', type: 'main', index: 0 }]] },
	},
	active: false,
	settings: { executionOrder: 'v1' },
};

beforeAll(async () => {
	const bins = installN8n();
	const began = Date.now();
	// Side by side: each n8n's CLI imports take seconds of start-up that need not wait on another's.
	const setUp = async (engine: Engine) => {
		// Room to start the old ones at once: the studio bucket would refuse most of them.
		const sandbox = createSandbox({
			queuedMs: 1e9,
			runningMs: 0,
			credits: OLD_AT_ACTIVATION + 100,
			buckets: { studio: { limit: 1e6 } },
		});
		sandbox.config.generationTimestamps = false;
		const url = await sandbox.listen();
		const n8n = new N8n(bins, undefined, ENGINE_SETTINGS[engine]);
		await n8n.init();
		installPackage(n8n.userFolder);
		await n8n.importCredentials([
			{
				id: 'sandboxApiKey',
				name: 'Social Content (sandbox)',
				type: 'socialContentApi',
				data: { instanceUrl: `${url}/api/`, apiKey: KEY },
			},
		]);
		await n8n.importWorkflows([workflow]);
		instances.set(engine, { n8n, sandbox, url });
	};
	await Promise.all(ENGINES.map(setUp));
	printed.push(`  set-up of the three: ${Math.round((Date.now() - began) / 1000)} s`);
}, 20 * 60_000);

afterAll(async () => {
	for (const { n8n, sandbox } of instances.values()) {
		await n8n.stop();
		n8n.cleanup();
		await sandbox.close();
	}
	// eslint-disable-next-line no-console
	console.info(`trigger in a real n8n 2.41.1, per poll engine:\n${printed.join('\n')}`);
});

test.concurrent.each(ENGINES)(
	'%s: activation baseline over 1,009 finished, a failed first scheduled poll and what finished before it, a restart, a file that stays missing, deactivate/activate',
	async (engine) => {
		const { n8n, sandbox, url } = instances.get(engine)!;
		const headers = { Authorization: KEY, 'Content-Type': 'application/json' };
		const start = async () => {
			const response = await fetch(`${url}/api/public/v1/studio/generations`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ formatId: 'wall_of_text', input: { hook: engine } }),
			});
			const body = (await response.json()) as IDataObject;
			if (!response.ok || !body.id)
				throw new Error(`could not start a generation: ${JSON.stringify(body)}`);
			return String(body.id);
		};
		const finish = async (ids: string[]) =>
			await fetch(`${url}/__sandbox/finish`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ ids }),
			});
		const postsOf = (id: string) =>
			sandbox.state.posts.filter((post) => String(post.content).startsWith(`fired ${id} `));
		const fired = (...ids: string[]) => ids.every((id) => postsOf(id).length > 0);
		const waitFor = async (
			done: () => boolean,
			what: string,
			ms: number,
			refresh?: () => Promise<unknown>,
		) => {
			const deadline = Date.now() + ms;
			while ((await refresh?.(), !done())) {
				if (Date.now() > deadline) {
					const executions = ((
						await n8n.publicApi(
							apiKey,
							'GET',
							`/executions?workflowId=${WORKFLOW_ID}&limit=20&includeData=true`,
						)
					).data ?? []) as IDataObject[];
					const seen = executions.map(
						(execution) =>
							`${String(execution.status)}: ${JSON.stringify((execution.data as IDataObject | undefined)?.resultData ?? {}).slice(0, 600)}`,
					);
					const staticData = JSON.stringify(
						(await n8n.publicApi(apiKey, 'GET', `/workflows/${WORKFLOW_ID}`)).staticData,
					).slice(0, 800);
					const generations = JSON.stringify(
						(sandbox.state.generations as IDataObject[]).map(
							(g) => `${String(g.id)}:${String(g.status)}`,
						),
					);
					throw new Error(
						`${engine}: ${what} did not happen within ${ms / 1000} s. Static data: ${staticData}; generations: ${generations}; posts: ${JSON.stringify(sandbox.state.posts.map((post) => post.content))}; requests: ${JSON.stringify((sandbox.state.counts as IDataObject).byRoute)}; executions:\n${seen.join('\n')}\nn8n's log:\n${n8n.serverLog.join('').slice(-3000)}`,
					);
				}
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		};
		const listReads = () =>
			Number(
				((sandbox.state.counts as IDataObject).byRoute as IDataObject)['GET /studio/generations'] ??
					0,
			);
		// n8n activates in the background after answering: the activation poll is done once it has read the list.
		const activate = async () => {
			const before = listReads();
			await n8n.publicApi(apiKey, 'POST', `/workflows/${WORKFLOW_ID}/activate`);
			await waitFor(() => listReads() > before, 'the activation poll', MINUTE);
		};
		const deactivate = async () =>
			await n8n.publicApi(apiKey, 'POST', `/workflows/${WORKFLOW_ID}/deactivate`);
		const MINUTE = 60_000;

		const began = Date.now();
		const phases: string[] = [];
		const phase = (name: string) =>
			phases.push(`${name} ${Math.round((Date.now() - began) / 1000)} s`);
		await n8n.start();
		const apiKey = await n8n.ownerApiKey();
		const old: string[] = [];
		while (old.length < OLD_AT_ACTIVATION)
			old.push(
				...(await Promise.all(
					Array.from({ length: Math.min(50, OLD_AT_ACTIVATION - old.length) }, start),
				)),
			);
		await finish(old);
		const [p1, p2] = [await start(), await start()];
		phase('ready');

		// Activation: the poll n8n runs then is the baseline (the old ones never fire). It reads the
		// unpaged list once, so a fault added after that read meets the first scheduled poll.
		await activate();
		phase('activated');
		// The first scheduled poll fails (3 tries: an error execution). What finished before it
		// fires on the next one: with durable cursors n8n kept neither the activation poll's state
		// nor the failed poll's, so the baseline comes from the trigger's own copy.
		sandbox.state.faults.push({
			kind: 'status',
			status: 500,
			method: 'GET',
			path: 'studio/generations$',
			count: 3,
		});
		const a1 = await start();
		await finish([a1, p1]);
		let errors = 0;
		await waitFor(
			() => errors > 0,
			'an error execution for the failed poll',
			3 * MINUTE,
			async () => (errors = (await n8n.errorExecutions(apiKey, WORKFLOW_ID)).length),
		);
		const b1 = await start();
		await finish([b1]);
		await waitFor(() => fired(a1, p1, b1), 'the poll after the failed one', 4 * MINUTE);
		phase('failed poll, then fired');

		// A restart, with a generation finishing while n8n is down.
		await n8n.stop();
		const c1 = await start();
		await finish([c1]);
		await n8n.start();
		await waitFor(() => fired(c1), 'the first poll after the restart', 3 * MINUTE);
		phase('after the restart');

		// A file that stays missing: tried on five polls, then emitted with its error. Each
		// activation polls at once, so deactivating and activating makes the tries come faster.
		const m1 = await start();
		sandbox.config.missingOutputs = [m1];
		await finish([m1]);
		for (let cycle = 0; cycle < 8 && !fired(m1); cycle++) {
			await deactivate();
			await activate();
		}
		await waitFor(() => fired(m1), 'the missing file emitted with its error', 3 * MINUTE);
		expect(postsOf(m1).map((post) => post.content)).toEqual([`fired ${m1} with error`]);
		phase('missing file');

		// Deactivated while generations finish, activated again: they fire once.
		await deactivate();
		const d1 = await start();
		await finish([d1, p2]);
		await activate();
		await waitFor(() => fired(d1, p2), 'the poll after re-activation', 3 * MINUTE);
		phase('re-activated');

		// Two more scheduled polls: nothing fires again. (A poll that emits nothing leaves no trace
		// but its list read; by the second read, anything the first emitted has run long since.)
		const postsNow = sandbox.state.posts.length;
		const readsNow = listReads();
		await waitFor(() => listReads() >= readsNow + 2, 'two more scheduled polls', 4 * MINUTE);
		expect(sandbox.state.posts.length).toBe(postsNow);
		await deactivate();
		phase('two quiet polls');

		const due = [a1, p1, b1, c1, m1, d1, p2];
		const counts = due.map((id) => postsOf(id).length);
		const totals = {
			firedOnce: counts.filter((n) => n === 1).length,
			firedTwice: counts.filter((n) => n > 1).length,
			lost: counts.filter((n) => n === 0).length,
			oldFired: old.filter((id) => postsOf(id).length > 0).length,
		};
		printed.push(
			`  ${engine}: fired once ${totals.firedOnce}, fired twice ${totals.firedTwice}, lost ${totals.lost}, old re-fired ${totals.oldFired}; error executions ${errors}; ${phases.join(', ')}`,
		);
		expect(totals).toEqual({ firedOnce: due.length, firedTwice: 0, lost: 0, oldFired: 0 });
	},
);
