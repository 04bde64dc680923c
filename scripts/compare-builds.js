#!/usr/bin/env node
// CI (.ci/run): the package `n8n-node build` makes (n8n's tooling: tsc, then a copy of every
// **/*.{png,svg} outside dot-folders) and the one `npm run build` makes (tsc, then gulp copies the
// icons) must be the same files, byte for byte. Builds with each, lists what `npm pack` would ship
// after each, prints every difference and fails on any. Leaves `npm run build`'s dist/.
'use strict';
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

/** What `npm pack` would ship now: each file's path and a hash of its bytes. */
function packedFiles() {
	const [{ files }] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	return new Map(
		files.map(({ path }) => [
			path,
			createHash('sha256')
				.update(readFileSync(join(ROOT, path)))
				.digest('hex'),
		]),
	);
}

/** Each path one list has and the other lacks, and each path whose bytes differ. */
function differences(n8nBuild, ourBuild) {
	const found = [];
	for (const [path, hash] of n8nBuild) {
		if (!ourBuild.has(path)) found.push(`only in n8n-node build: ${path}`);
		else if (ourBuild.get(path) !== hash) found.push(`differs: ${path}`);
	}
	for (const path of ourBuild.keys())
		if (!n8nBuild.has(path)) found.push(`only in npm run build: ${path}`);
	return found.sort();
}

function main() {
	const build = (command, args) =>
		execFileSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	build(join(ROOT, 'node_modules', '.bin', 'n8n-node'), ['build']);
	const n8nBuild = packedFiles();
	build('npm', ['run', 'build', '--silent']);
	const ourBuild = packedFiles();
	const found = differences(n8nBuild, ourBuild);
	if (found.length > 0) {
		console.error(`The two builds ship different files:\n  ${found.join('\n  ')}`);
		process.exit(1);
	}
	console.log(`Both builds ship the same ${ourBuild.size} files.`);
}

if (require.main === module) main();
module.exports = { differences };
