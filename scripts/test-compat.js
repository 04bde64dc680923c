#!/usr/bin/env node
// npm run test:compat -- <n8n version>: installs that n8n (cached beside the e2e's) and runs the
// short end-to-end set of test/compat/n8n.compat.cts against it. Node (fetched from the npm
// registry) by version: 20 for n8n 1.x before 1.100 and for 2.0–2.8; 22 for 1.100–1.123 (their
// isolated-vm does not build on 20); 24 after 2.8. NODE_MAJOR overrides.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
	console.error(
		'Usage: npm run test:compat -- <n8n version>, e.g. npm run test:compat -- 1.123.81',
	);
	process.exit(2);
}
const [major, minor] = version.split('.').map(Number);
function nodeFor() {
	if (major === 1) return minor >= 100 ? '22' : '20';
	return major === 2 && minor <= 8 ? '20' : '24';
}
const nodeMajor = process.env.NODE_MAJOR || nodeFor();
const jest = join(__dirname, '..', 'node_modules', '.bin', 'jest');
const result = spawnSync(
	jest,
	['--testMatch', '<rootDir>/test/compat/*.compat.cts', '--runInBand', '--testTimeout', '300000'],
	{
		cwd: join(__dirname, '..'),
		stdio: 'inherit',
		env: { ...process.env, N8N_VERSION: version, NODE_MAJOR: nodeMajor },
	},
);
process.exit(result.status ?? 1);
