#!/usr/bin/env node
// The one-command demo: builds the package, starts the sandbox service and a real n8n with the
// package loaded, imports the example workflows and a credential, and prints where to log in.
// Ctrl-C stops both. To use a real instance instead of the sandbox:
//   SOCIAL_CONTENT_URL=https://app.example.com SOCIAL_CONTENT_API_KEY=... npm run demo
// For tests: DEMO_FOLDER (n8n's data folder, emptied first), DEMO_SKIP_BUILD=1 (dist/ is built),
// SANDBOX_API_KEY (the sandbox's key instead of sk_sandbox_demo_key).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const {
	ROOT,
	installN8n,
	installPackage,
	n8nEnv,
	setupOwner,
	waitUntilReady,
} = require('./n8n-runtime');
const { createSandbox } = require('../test/sandbox/server');

const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010);
const LOGIN = { email: 'demo@example.com', password: 'Demo-Passw0rd' };
const log = (line) => console.log(`[demo] ${line}`);

async function main() {
	if (process.env.DEMO_SKIP_BUILD !== '1') {
		log('building the package');
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	}
	log('installing n8n and Node 24 (cached after the first run)');
	const { nodeBin, n8nBin, cache } = installN8n();
	// n8n's data folder (database, its cached web assets) beside the cached n8n, never in the
	// checkout: lint and the tests see the same tree before and after a demo.
	const USER_FOLDER = process.env.DEMO_FOLDER || join(cache, 'demo');

	let sandbox;
	let instanceUrl = process.env.SOCIAL_CONTENT_URL;
	let apiKey = process.env.SOCIAL_CONTENT_API_KEY;
	if (!instanceUrl) {
		sandbox = createSandbox(
			process.env.SANDBOX_API_KEY ? { apiKey: process.env.SANDBOX_API_KEY } : {},
		);
		instanceUrl = await sandbox.listen(SANDBOX_PORT);
		apiKey = sandbox.config.apiKey;
		log(`sandbox service on ${instanceUrl} (API key ${apiKey})`);
	} else {
		log(`using the instance at ${instanceUrl}`);
	}

	rmSync(USER_FOLDER, { recursive: true, force: true });
	mkdirSync(USER_FOLDER, { recursive: true });
	installPackage(USER_FOLDER);
	const env = n8nEnv(nodeBin, USER_FOLDER, N8N_PORT, N8N_PORT + 1000);
	const cli = (args) =>
		execFileSync(n8nBin, args, { cwd: USER_FOLDER, env, stdio: ['ignore', 'ignore', 'inherit'] });

	const credentials = [
		{
			id: 'sandboxApiKey',
			name: 'Social Content (sandbox)',
			type: 'socialContentApi',
			data: { instanceUrl, apiKey },
		},
		{
			id: 'sandboxOAuth2',
			name: 'Social Content OAuth2 (sandbox)',
			type: 'socialContentOAuth2Api',
			data: {
				instanceUrl,
				clientId: 'sandbox-client',
				clientSecret: 'sandbox-secret',
				usePkce: true,
			},
		},
	];
	// The import file holds the key in plain text (a real one with SOCIAL_CONTENT_API_KEY): readable
	// by this user alone, and gone as soon as n8n has read it, whatever happens next. n8n keeps its
	// own copy, encrypted, in its database.
	const credentialsFile = join(USER_FOLDER, 'credentials.json');
	try {
		writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
		cli(['import:credentials', `--input=${credentialsFile}`]);
	} finally {
		rmSync(credentialsFile, { force: true });
	}
	log(
		`credentials kept only by n8n, encrypted, in ${join(USER_FOLDER, '.n8n', 'database.sqlite')} (its key in ${join(USER_FOLDER, '.n8n', 'config')})`,
	);
	const examples = readdirSync(join(ROOT, 'examples')).filter((file) => file.endsWith('.json'));
	const workflows = examples.map((file) =>
		JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')),
	);
	writeFileSync(join(USER_FOLDER, 'workflows.json'), JSON.stringify(workflows));
	cli(['import:workflow', `--input=${join(USER_FOLDER, 'workflows.json')}`]);
	log(`imported ${credentials.length} credentials and ${workflows.length} example workflows`);

	log(`starting n8n on port ${N8N_PORT}`);
	const n8n = spawn(n8nBin, ['start'], {
		cwd: USER_FOLDER,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const output = [];
	n8n.stdout.on('data', (chunk) => output.push(String(chunk)));
	n8n.stderr.on('data', (chunk) => output.push(String(chunk)));
	const url = `http://127.0.0.1:${N8N_PORT}`;

	let stopping = false;
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		log('stopping n8n and the sandbox');
		n8n.kill('SIGTERM');
		await Promise.race([
			new Promise((resolve) => n8n.once('exit', resolve)),
			new Promise((resolve) => setTimeout(resolve, 10000)),
		]);
		if (n8n.exitCode === null) n8n.kill('SIGKILL');
		if (sandbox) await sandbox.close();
		process.exit(code);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	n8n.on('exit', (code) => {
		if (!stopping) {
			console.error(output.join('').slice(-3000));
			log(`n8n exited (${code})`);
			stop(1);
		}
	});

	await waitUntilReady(url, n8n, output);
	await setupOwner(url, LOGIN.email, LOGIN.password);
	log('ready');
	console.log(`
  n8n editor:  ${url}
  login:       ${LOGIN.email} / ${LOGIN.password}
  service:     ${instanceUrl}${sandbox ? ' (sandbox: API key ' + apiKey + ')' : ''}

  Open a workflow named "Social Content: …" and click "Execute workflow".
  Press Ctrl-C to stop n8n and the sandbox.
`);
}

main().catch((error) => {
	console.error(`[demo] failed: ${error.message}`);
	process.exit(1);
});
