/**
 * Drives a real n8n (2.x under Node 24, or another version for test:compat) with this package installed the
 * way n8n loads community nodes: import credentials and workflows headlessly, execute workflows
 * with `n8n execute`, and run the server for what needs activation (polling triggers).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, IRunExecutionData } from 'n8n-workflow';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../scripts/n8n-runtime.js') as {
	ROOT: string;
	installN8n(): { nodeBin: string; n8nBin: string };
	installPackage(userFolder: string): void;
	n8nEnv(
		nodeBin: string,
		userFolder: string,
		port: number,
		brokerPort: number,
		extra?: IDataObject,
	): NodeJS.ProcessEnv;
	waitUntilReady(url: string, child: ChildProcess, log: string[]): Promise<void>;
	setupOwner(url: string, email: string, password: string): Promise<string>;
};
export const { ROOT, installN8n, installPackage } = runtime;

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export interface ExecutionResult {
	status: string;
	runData: Record<
		string,
		Array<{
			data?: { main: Array<Array<{ json: IDataObject; binary?: IDataObject }>> };
			error?: IDataObject;
		}>
	>;
	error?: IDataObject;
	/** Everything `n8n execute` printed: its log lines and the run data. */
	raw: string;
	/** Items of a node's first output, in its last run. */
	items(nodeName: string): Array<{ json: IDataObject; binary?: IDataObject }>;
}

export class N8n {
	readonly userFolder: string;
	private server?: ChildProcess;
	/** What the running server printed (its warnings: N8N_LOG_LEVEL is warn). */
	serverLog: string[] = [];
	/** The owner's session, once ownerApiKey() has set the owner up: for the editor's REST calls. */
	private ownerCookie?: string;
	port = 0;
	private brokerPort = 0;

	constructor(
		private readonly bins: { nodeBin: string; n8nBin: string },
		userFolder?: string,
		/** Settings of this n8n beyond ours (the poll engine's switches, say). */
		private readonly settings: IDataObject = {},
	) {
		this.userFolder = userFolder ?? mkdtempSync(join(tmpdir(), 'sc-n8n-'));
		// Whose folder it is: a run stopped before its cleanup leaves it, and the next run's global
		// setup removes folders whose process is gone (test/globalSetup.js).
		writeFileSync(join(this.userFolder, '.owner-pid'), String(process.pid));
	}

	async init(): Promise<void> {
		this.port = await freePort();
		this.brokerPort = await freePort();
	}

	env(extra: IDataObject = {}): NodeJS.ProcessEnv {
		const strings = Object.fromEntries(
			Object.entries({ ...this.settings, ...extra }).map(([key, value]) => [key, String(value)]),
		);
		return runtime.n8nEnv(this.bins.nodeBin, this.userFolder, this.port, this.brokerPort, strings);
	}

	/** Runs an n8n CLI command without blocking this process (the sandbox may live in it). */
	async cli(args: string[]): Promise<string> {
		// Its own free port for the CLI's task broker: the one after the server's may be another
		// n8n's (a run once failed with "Task Broker's port … is already in use").
		const brokerPort = await freePort();
		const run = promisify(execFile)(this.bins.n8nBin, args, {
			cwd: this.userFolder,
			// At "info", `n8n execute` prints the run data after its log lines.
			env: this.env({ N8N_RUNNERS_BROKER_PORT: brokerPort, N8N_LOG_LEVEL: 'info' }),
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			timeout: 5 * 60_000,
		});
		if (args[0] === 'execute') {
			const { stdout, stderr } = await run;
			return `${stderr}\n${stdout}`;
		}
		try {
			return (await run).stdout;
		} catch (error) {
			const { stdout, stderr } = error as { stdout?: string; stderr?: string };
			throw new Error(
				`n8n ${args[0]} failed:\n${String(stdout ?? '').slice(-2000)}\n${String(stderr ?? '').slice(-2000)}`,
			);
		}
	}

	async importCredentials(credentials: IDataObject[]): Promise<void> {
		const file = join(this.userFolder, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials));
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(workflows: IDataObject[]): Promise<void> {
		const file = join(this.userFolder, 'workflows.json');
		writeFileSync(file, JSON.stringify(workflows));
		await this.cli(['import:workflow', `--input=${file}`]);
	}

	/** `n8n execute --id`: the run data, parsed from after n8n's log lines. */
	async execute(workflowId: string): Promise<ExecutionResult> {
		let output: string;
		try {
			output = await this.cli(['execute', `--id=${workflowId}`]);
		} catch (error) {
			output =
				String((error as { stderr?: string }).stderr ?? '') +
				String((error as { stdout?: string }).stdout ?? '');
		}
		const start = output.indexOf('{', output.indexOf('===================================='));
		if (start < 0) throw new Error(`n8n execute gave no run data:\n${output.slice(-3000)}`);
		const parsed = JSON.parse(firstJsonObject(output, start)) as {
			data: IRunExecutionData;
			status?: string;
		};
		const runData = parsed.data.resultData.runData as unknown as ExecutionResult['runData'];
		return {
			status: parsed.status ?? 'unknown',
			runData,
			error: parsed.data.resultData.error as IDataObject | undefined,
			raw: output,
			items(nodeName: string) {
				const runs = runData[nodeName];
				if (!runs)
					throw new Error(
						`Node "${nodeName}" did not run. Error: ${JSON.stringify(parsed.data.resultData.error ?? runData)}`,
					);
				return runs[runs.length - 1].data?.main[0] ?? [];
			},
		};
	}

	/** Starts `n8n start` and waits until it answers. */
	async start(): Promise<void> {
		this.server = spawn(this.bins.n8nBin, ['start'], {
			cwd: this.userFolder,
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const log: string[] = (this.serverLog = []);
		this.server.stdout?.on('data', (chunk) => log.push(String(chunk)));
		this.server.stderr?.on('data', (chunk) => log.push(String(chunk)));
		await runtime.waitUntilReady(this.url, this.server, log);
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async stop(): Promise<void> {
		if (!this.server || this.server.exitCode !== null) return;
		const exited = new Promise((resolve) => this.server!.once('exit', resolve));
		this.server.kill('SIGTERM');
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
		if (this.server.exitCode === null) this.server.kill('SIGKILL');
	}

	/**
	 * Owner account and a public-API key, for activating workflows. n8n 2.x takes scoped keys at
	 * /rest/api-keys; 1.x took a label only there, and before that one key at /rest/me/api-key.
	 */
	async ownerApiKey(email = 'owner@example.com', password = 'Sandbox-Passw0rd'): Promise<string> {
		const cookie = await runtime.setupOwner(this.url, email, password);
		this.ownerCookie = cookie;
		const scopes = [
			'workflow:activate',
			'workflow:deactivate',
			'workflow:read',
			'execution:read',
			'execution:list',
			'workflow:list',
		];
		const attempts: Array<[string, IDataObject | undefined]> = [
			['/rest/api-keys', { label: 'e2e', expiresAt: null, scopes }],
			['/rest/api-keys', { label: 'e2e' }],
			['/rest/me/api-key', undefined],
		];
		const answers: string[] = [];
		for (const [path, body] of attempts) {
			const created = await fetch(`${this.url}${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Cookie: cookie },
				body: body ? JSON.stringify(body) : undefined,
			});
			const text = await created.text();
			answers.push(`${path}: ${created.status} ${text.slice(0, 200)}`);
			if (!created.ok) continue;
			const data = (JSON.parse(text) as { data?: { rawApiKey?: string; apiKey?: string } }).data;
			const key = data?.rawApiKey ?? data?.apiKey;
			if (key) return key;
		}
		throw new Error(`api key creation failed:\n${answers.join('\n')}`);
	}

	/** A call of n8n's internal REST API as the editor makes it, in the owner's session. */
	async rest(method: string, path: string, body?: IDataObject): Promise<IDataObject> {
		if (!this.ownerCookie) throw new Error('rest(): call ownerApiKey() first');
		const response = await fetch(`${this.url}/rest${path}`, {
			method,
			headers: {
				'Content-Type': 'application/json',
				Cookie: this.ownerCookie,
				'browser-id': 'e2e',
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${path}: ${response.status} ${text.slice(0, 500)}`);
		return JSON.parse(text) as IDataObject;
	}

	/** A workflow's executions with their data, newest first. */
	async executions(
		apiKey: string,
		workflowId: string,
		status: 'success' | 'error',
	): Promise<IDataObject[]> {
		return ((
			await this.publicApi(
				apiKey,
				'GET',
				`/executions?workflowId=${workflowId}&status=${status}&includeData=true&limit=100`,
			)
		).data ?? []) as IDataObject[];
	}

	/** A workflow's executions that ended in an error (a failed poll is one). */
	async errorExecutions(apiKey: string, workflowId: string): Promise<IDataObject[]> {
		return ((
			await this.publicApi(
				apiKey,
				'GET',
				`/executions?workflowId=${workflowId}&status=error&limit=100`,
			)
		).data ?? []) as IDataObject[];
	}

	async publicApi(apiKey: string, method: string, path: string): Promise<IDataObject> {
		const response = await fetch(`${this.url}/api/v1${path}`, {
			method,
			headers: { 'X-N8N-API-KEY': apiKey, Accept: 'application/json' },
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
		return JSON.parse(text) as IDataObject;
	}

	cleanup(): void {
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/** The JSON object that starts at `start`: log lines may follow it in n8n's output. */
function firstJsonObject(text: string, start: number): string {
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{') depth++;
		else if (char === '}' && --depth === 0) return text.slice(start, index + 1);
	}
	return text.slice(start);
}
