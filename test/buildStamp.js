// What test/globalSetup.js needs to know before any suite: whether dist/ already holds the build of
// the sources as they are (so the quick loop does not rebuild when nothing changed), and whether
// the run may start a real n8n (only then is the package packed once for the run).
'use strict';
const { createHash } = require('node:crypto');
const {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	writeFileSync,
} = require('node:fs');
const { dirname, join, relative } = require('node:path');

/** What `npm run build` reads: the sources, their icons, and what decides how they compile. */
const BUILD_INPUTS = [
	'nodes',
	'credentials',
	'icons',
	'package.json',
	'package-lock.json',
	'tsconfig.json',
	'gulpfile.js',
];

/** Where the last build's fingerprint is kept: outside dist/, which `npm pack` ships. */
const stampFile = (root) =>
	join(root, 'node_modules', '.cache', 'n8n-nodes-social-content', 'build.json');

/** Every file below `path` (or `path` itself), as paths from `root`, sorted. */
function filesOf(root, path) {
	const full = join(root, path);
	if (!existsSync(full)) return [];
	if (!statSync(full).isDirectory()) return [path];
	return readdirSync(full)
		.sort()
		.flatMap((name) => filesOf(root, join(path, name)));
}

/** The inputs by content; dist/ by name, size and time (it is only ever written by a build). */
function fingerprint(root) {
	const inputs = createHash('sha256');
	for (const file of BUILD_INPUTS.flatMap((path) => filesOf(root, path)))
		inputs
			.update(`${file}\0`)
			.update(readFileSync(join(root, file)))
			.update('\0');
	const output = createHash('sha256');
	for (const file of filesOf(root, 'dist')) {
		const { size, mtimeMs } = statSync(join(root, file));
		output.update(`${relative('dist', file)}|${size}|${mtimeMs}\0`);
	}
	return { inputs: inputs.digest('hex'), output: output.digest('hex') };
}

/** Whether dist/ is what the last build made of these very sources. */
function isBuilt(root) {
	const file = stampFile(root);
	if (!existsSync(file) || !existsSync(join(root, 'dist'))) return false;
	const last = JSON.parse(readFileSync(file, 'utf8'));
	const now = fingerprint(root);
	return last.inputs === now.inputs && last.output === now.output;
}

/** After a build: its inputs and what it wrote. */
function recordBuild(root) {
	const file = stampFile(root);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(fingerprint(root)));
}

/**
 * Whether the suites jest selected may start a real n8n (test/e2e), which installs the packed
 * package: jest matches its path pattern, case-insensitively, against each test file's full path.
 */
function mayStartN8n(root, testPathPattern) {
	if (!testPathPattern) return true;
	const pattern = new RegExp(testPathPattern, 'i');
	return filesOf(root, join('test', 'e2e'))
		.filter((file) => file.endsWith('.test.cts'))
		.some((file) => pattern.test(join(root, file)));
}

module.exports = { isBuilt, mayStartN8n, recordBuild };
