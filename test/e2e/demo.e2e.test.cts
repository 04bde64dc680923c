/**
 * `npm run demo` (sandbox mode, and with a real instance's key) leaves no file holding the API key, neither while n8n runs nor
 * after Ctrl-C: the credential import file is readable by the user alone and removed as soon as
 * n8n has read it; n8n keeps its own copy, encrypted, in its database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSandbox } from '../helpers/sandbox.cjs';
import { waitFor } from '../helpers/waitFor.cjs';
import { freePort, installN8n, ROOT } from './n8n.cjs';

/** A key no file of the package or of n8n could hold by chance: only the demo was given it. */
const uniqueKey = () => `sk_demo_test_${randomBytes(12).toString('hex')}`;

function filesHolding(folder: string, secret: string): string[] {
	if (!existsSync(folder)) return [];
	return readdirSync(folder, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name))
		.filter((path) => readFileSync(path).includes(secret));
}

describe('npm run demo', () => {
	const parents: string[] = [];
	let demo: ChildProcess | undefined;
	let service: { listen(port: number): Promise<string>; close(): Promise<void> } | undefined;

	beforeAll(() => installN8n(), 600_000);
	afterEach(async () => {
		if (demo && demo.exitCode === null) demo.kill('SIGKILL');
		await service?.close();
		service = undefined;
	});
	afterAll(() => parents.forEach((parent) => rmSync(parent, { recursive: true, force: true })));

	/** Runs the demo until it is ready, checks the folder, stops it with Ctrl-C, checks again. */
	async function demoLeavesNoKey(key: string, env: NodeJS.ProcessEnv) {
		const parent = mkdtempSync(join(tmpdir(), 'sc-n8n-demo-'));
		parents.push(parent);
		writeFileSync(join(parent, '.owner-pid'), String(process.pid));
		const folder = join(parent, 'n8n');
		const output: string[] = [];
		demo = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.js')], {
			cwd: ROOT,
			env: {
				...process.env,
				N8N_PORT: String(await freePort()),
				SANDBOX_PORT: String(await freePort()),
				DEMO_FOLDER: folder,
				DEMO_SKIP_BUILD: '1',
				SOCIAL_CONTENT_URL: '',
				...env,
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		demo.stdout!.on('data', (chunk) => output.push(String(chunk)));
		demo.stderr!.on('data', (chunk) => output.push(String(chunk)));
		const exited = new Promise<number | null>((resolve) => demo!.once('exit', resolve));

		const ready = await waitFor(
			() => output.join('').includes('[demo] ready') || demo!.exitCode !== null,
			{ deadlineMs: 240_000, everyMs: 200 },
		);
		expect({ ready, exitCode: demo.exitCode }).toEqual({ ready: true, exitCode: null });
		const log = output.join('');
		expect(log).toContain('imported 2 credentials');
		expect(log).toContain(
			`credentials kept only by n8n, encrypted, in ${join(folder, '.n8n', 'database.sqlite')}`,
		);
		expect(existsSync(join(folder, 'credentials.json'))).toBe(false);
		expect(filesHolding(folder, key)).toEqual([]);

		demo.kill('SIGINT');
		expect(await exited).toBe(0);
		expect(existsSync(join(folder, '.n8n', 'database.sqlite'))).toBe(true);
		expect(filesHolding(parent, key)).toEqual([]);
	}

	it('sandbox mode: the key is only in n8n’s encrypted database, and no file holds it after Ctrl-C', async () => {
		const key = uniqueKey();
		await demoLeavesNoKey(key, { SANDBOX_API_KEY: key });
	}, 400_000);

	it('a real instance (SOCIAL_CONTENT_URL and _API_KEY): no file holds the user’s key', async () => {
		const key = uniqueKey();
		service = createSandbox({ apiKey: key });
		const url = await service.listen(await freePort());
		await demoLeavesNoKey(key, { SOCIAL_CONTENT_URL: url, SOCIAL_CONTENT_API_KEY: key });
	}, 400_000);
});
