/**
 * Drives a real n8n (2.x, under Node 24 from the npm registry) with this package installed the
 * way n8n loads community nodes: import credentials and workflows headlessly, execute workflows
 * with `n8n execute`, and run the server for what needs activation (polling triggers).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, IRunExecutionData } from 'n8n-workflow';

export const ROOT = join(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-social-content';

/** Installs (once, cached) Node 24 and n8n; returns their folders. */
export function installN8n(): { nodeBin: string; n8nBin: string } {
	const out = execFileSync('bash', [join(__dirname, 'install-n8n.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	const cache = out.trim().split('\n').pop()!;
	const version = process.env.N8N_VERSION ?? '2.41.1';
	return { nodeBin: join(cache, 'node24', 'bin'), n8nBin: join(cache, `n8n-${version}`, 'node_modules', '.bin', 'n8n') };
}

/** Packs this package (building it first if dist/ is missing) and unpacks it where n8n looks. */
export function installPackage(userFolder: string): void {
	if (!existsSync(join(ROOT, 'dist', 'nodes'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	const packDir = mkdtempSync(join(tmpdir(), 'sc-pack-'));
	execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	const tarball = readdirSync(packDir).find((file) => file.endsWith('.tgz'))!;
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['xzf', join(packDir, tarball), '-C', target, '--strip-components=1']);
	rmSync(packDir, { recursive: true, force: true });
}

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
	runData: Record<string, Array<{ data?: { main: Array<Array<{ json: IDataObject; binary?: IDataObject }>> }; error?: IDataObject }>>;
	error?: IDataObject;
	/** Items of a node's first output, in its last run. */
	items(nodeName: string): Array<{ json: IDataObject; binary?: IDataObject }>;
}

export class N8n {
	readonly userFolder: string;
	private server?: ChildProcess;
	port = 0;
	private brokerPort = 0;

	constructor(private readonly bins: { nodeBin: string; n8nBin: string }, userFolder?: string) {
		this.userFolder = userFolder ?? mkdtempSync(join(tmpdir(), 'sc-n8n-'));
	}

	async init(): Promise<void> {
		this.port = await freePort();
		this.brokerPort = await freePort();
	}

	env(extra: IDataObject = {}): NodeJS.ProcessEnv {
		return {
			PATH: `${this.bins.nodeBin}:${process.env.PATH}`,
			HOME: process.env.HOME,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'social-content-e2e-key-0123456789',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_LOG_LEVEL: 'warn',
			GENERIC_TIMEZONE: 'UTC',
			...Object.fromEntries(Object.entries(extra).map(([key, value]) => [key, String(value)])),
		};
	}

	/** Runs an n8n CLI command without blocking this process (the sandbox may live in it). */
	async cli(args: string[]): Promise<string> {
		const { stdout } = await promisify(execFile)(this.bins.n8nBin, args, {
			cwd: this.userFolder,
			// At "info", `n8n execute` prints the run data after its log lines.
			env: this.env({ N8N_RUNNERS_BROKER_PORT: this.brokerPort + 1, N8N_LOG_LEVEL: 'info' }),
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			timeout: 5 * 60_000,
		});
		return stdout;
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
			output = String((error as { stdout?: string }).stdout ?? '') + String((error as { stderr?: string }).stderr ?? '');
		}
		const start = output.indexOf('{', output.indexOf('===================================='));
		if (start < 0) throw new Error(`n8n execute gave no run data:\n${output.slice(-3000)}`);
		const parsed = JSON.parse(output.slice(start)) as { data: IRunExecutionData; status?: string };
		const runData = parsed.data.resultData.runData as unknown as ExecutionResult['runData'];
		return {
			status: parsed.status ?? 'unknown',
			runData,
			error: parsed.data.resultData.error as IDataObject | undefined,
			items(nodeName: string) {
				const runs = runData[nodeName];
				if (!runs) throw new Error(`Node "${nodeName}" did not run. Error: ${JSON.stringify(parsed.data.resultData.error ?? runData)}`);
				return runs[runs.length - 1].data?.main[0] ?? [];
			},
		};
	}

	/** Starts `n8n start` and waits until it answers. */
	async start(): Promise<void> {
		this.server = spawn(this.bins.n8nBin, ['start'], { cwd: this.userFolder, env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] });
		const log: string[] = [];
		this.server.stdout?.on('data', (chunk) => log.push(String(chunk)));
		this.server.stderr?.on('data', (chunk) => log.push(String(chunk)));
		const deadline = Date.now() + 120_000;
		while (Date.now() < deadline) {
			try {
				const response = await fetch(`${this.url}/healthz/readiness`);
				if (response.ok) return;
			} catch {
				// not up yet
			}
			if (this.server.exitCode !== null) break;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		throw new Error(`n8n did not start:\n${log.join('').slice(-3000)}`);
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

	/** Owner account and a public-API key, for activating workflows. */
	async ownerApiKey(email = 'owner@example.com', password = 'Sandbox-Passw0rd'): Promise<string> {
		const setup = await fetch(`${this.url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ email, firstName: 'Demo', lastName: 'Owner', password }),
		});
		const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0];
		if (!setup.ok) throw new Error(`owner setup failed: ${setup.status} ${await setup.text()}`);
		const created = await fetch(`${this.url}/rest/api-keys`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Cookie: cookie },
			body: JSON.stringify({ label: 'e2e', expiresAt: null, scopes: ['workflow:activate', 'workflow:deactivate', 'workflow:read', 'execution:read', 'execution:list', 'workflow:list'] }),
		});
		const body = (await created.json()) as { data?: { rawApiKey?: string; apiKey?: string } };
		const key = body.data?.rawApiKey ?? body.data?.apiKey;
		if (!key) throw new Error(`api key creation failed: ${created.status} ${JSON.stringify(body)}`);
		return key;
	}

	async publicApi(apiKey: string, method: string, path: string): Promise<IDataObject> {
		const response = await fetch(`${this.url}/api/v1${path}`, { method, headers: { 'X-N8N-API-KEY': apiKey, Accept: 'application/json' } });
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
		return JSON.parse(text) as IDataObject;
	}

	cleanup(): void {
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}
