// Shared by the demo (scripts/demo.js) and the end-to-end suite (test/e2e): installs Node 24 and
// n8n into a cache, and installs this package into an n8n user folder as a community node.
'use strict';
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');

const ROOT = join(__dirname, '..');
const PACKAGE_NAME = 'n8n-nodes-social-content';

/**
 * Installs (once, cached) Node and n8n; returns the cache folder, the Node bin folder and the n8n binary. The
 * version comes from N8N_VERSION (default 2.41.1, on Node 24; NODE_MAJOR picks another Node).
 */
function installN8n() {
	const out = execFileSync('bash', [join(ROOT, 'test', 'e2e', 'install-n8n.sh')], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const cache = out.trim().split('\n').pop();
	const version = process.env.N8N_VERSION || '2.41.1';
	const nodeMajor = process.env.NODE_MAJOR || '24';
	return {
		cache,
		nodeBin: join(cache, `node${nodeMajor}`, 'bin'),
		n8nBin: join(cache, `n8n-${version}`, 'node_modules', '.bin', 'n8n'),
	};
}

/**
 * Builds and packs this package, and unpacks it where n8n looks: always the current source. In a
 * test run the package is built and packed once, before any suite (test/globalSetup.js names the
 * tarball in SC_PACKAGE_TARBALL); every n8n of the run unpacks that one.
 */
function installPackage(userFolder) {
	const built = process.env.SC_PACKAGE_TARBALL;
	const tarball = built && existsSync(built) ? built : packPackage();
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
	if (tarball !== built) rmSync(dirname(tarball), { recursive: true, force: true });
}

/**
 * Compiles over dist/ (unless it was just built) and packs it; returns the tarball's path, in a
 * folder of its own.
 */
function packPackage(packDir = mkdtempSync(join(tmpdir(), 'sc-pack-')), { compile = true } = {}) {
	// Compiles over dist/ in place (no clean): a test that lists dist/ may be running beside it.
	if (compile)
		execFileSync('npm', ['run', 'compile', '--silent'], {
			cwd: ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
		cwd: ROOT,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	return join(
		packDir,
		readdirSync(packDir).find((file) => file.endsWith('.tgz')),
	);
}

/**
 * The key n8n encrypts its credentials with, for this user folder: random, made at the folder's
 * first start and kept beside n8n's data (`.encryption-key`, readable by its owner only; the folder
 * too), so a restart on the same folder still reads them and no two folders share one.
 */
function encryptionKeyFor(userFolder) {
	mkdirSync(userFolder, { recursive: true, mode: 0o700 });
	chmodSync(userFolder, 0o700);
	const file = join(userFolder, '.encryption-key');
	if (!existsSync(file))
		writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o600, flag: 'wx' });
	return readFileSync(file, 'utf8').trim();
}

/** The environment n8n runs with here: no telemetry, loopback only, the folder's own encryption key. */
function n8nEnv(nodeBin, userFolder, port, brokerPort, extra = {}) {
	return {
		PATH: `${nodeBin}:${process.env.PATH}`,
		HOME: process.env.HOME,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKeyFor(userFolder),
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_LOG_LEVEL: 'warn',
		GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC',
		...extra,
	};
}

/** Waits until n8n answers its readiness check; fails with its last log lines if it exits or takes too long. */
async function waitUntilReady(url, child, log, timeoutMs = 120000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		try {
			// n8n 1.x reports ready before its REST routes are registered: wait for those too.
			if ((await fetch(`${url}/healthz/readiness`)).ok && (await fetch(`${url}/rest/settings`)).ok)
				return;
		} catch {
			// not listening yet
		}
		if (child.exitCode !== null) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`n8n did not start:\n${log.join('').slice(-3000)}`);
}

/** Creates the owner account of a fresh n8n; returns the session cookie. */
async function setupOwner(url, email, password) {
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ email, firstName: 'Demo', lastName: 'Owner', password }),
	});
	if (!response.ok)
		throw new Error(`owner setup failed: ${response.status} ${await response.text()}`);
	return (response.headers.get('set-cookie') || '').split(';')[0];
}

module.exports = {
	encryptionKeyFor,
	ROOT,
	PACKAGE_NAME,
	installN8n,
	installPackage,
	packPackage,
	n8nEnv,
	waitUntilReady,
	setupOwner,
};
