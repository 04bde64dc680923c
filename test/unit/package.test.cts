/**
 * What `npm publish` would ship: exactly the built nodes, credentials, icons and codex files, with
 * README, LICENSE and package.json; no test code, no sources, no secrets. Reads `npm pack
 * --dry-run` over dist/, which test/globalSetup.js compiles before any suite runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

import { API_KEY, OAUTH_TOKEN } from '../helpers/secrets.cjs';

const ROOT = join(__dirname, '..', '..');

function filesUnder(folder: string): string[] {
	return readdirSync(join(ROOT, folder)).flatMap((name) => {
		const path = join(folder, name);
		return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
	});
}

/** What the source says the package must hold: one .js per .ts, every codex file and icon. */
function expectedFiles(): string[] {
	const sources = [...filesUnder('nodes'), ...filesUnder('credentials')];
	return [
		'LICENSE',
		'README.md',
		'package.json',
		...sources
			.filter((path) => path.endsWith('.ts'))
			.map((path) => `dist/${path.replace(/\.ts$/, '.js')}`),
		...sources
			.filter((path) => path.endsWith('.node.json') || /\.(svg|png)$/.test(path))
			.map((path) => `dist/${path}`),
		...filesUnder('icons').map((path) => `dist/${path}`),
	].sort();
}

const packed: string[] = existsSync(join(ROOT, 'dist'))
	? (
			JSON.parse(
				execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
					cwd: ROOT,
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'ignore'],
				}),
			) as Array<{ files: Array<{ path: string }> }>
		)[0].files
			.map((file) => file.path)
			.sort()
	: [];

describe('the npm package', () => {
	test('dist/ was compiled before the tests (test/globalSetup.js)', () => {
		expect(packed.length).toBeGreaterThan(0);
	});

	test('holds exactly the built nodes, credentials, icons and codex files, README, LICENSE and package.json', () => {
		expect(packed).toEqual(expectedFiles());
	});

	test('holds no test code, TypeScript sources, source maps or environment files', () => {
		expect(
			packed.filter((path) =>
				/(^|\/)(test|bench|scripts|examples)\/|\.ts$|\.map$|(^|\/)\.env|\.npmrc$/.test(path),
			),
		).toEqual([]);
	});

	test('every node and credential that package.json registers is in it, with a codex file per node', () => {
		const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect(packed).toContain(entry);
		for (const node of manifest.n8n.nodes) expect(packed).toContain(node.replace(/\.js$/, '.json'));
	});

	test('no file in it carries a secret', () => {
		const secretLike = [
			API_KEY,
			OAUTH_TOKEN,
			/-----BEGIN [A-Z ]*PRIVATE KEY-----/,
			/\bnpm_[A-Za-z0-9]{36}\b/,
			/\bgh[pousr]_[A-Za-z0-9]{36}\b/,
		];
		const leaks = packed.flatMap((path) => {
			const text = readFileSync(join(ROOT, path), 'utf8');
			return secretLike
				.filter((secret) =>
					typeof secret === 'string' ? text.includes(secret) : secret.test(text),
				)
				.map((secret) => `${path}: ${String(secret)}`);
		});
		expect(leaks).toEqual([]);
	});
});

describe('n8n-node build and npm run build (scripts/compare-builds.js, run by CI)', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { differences } = require('../../scripts/compare-builds.js') as {
		differences(n8nBuild: Map<string, string>, ourBuild: Map<string, string>): string[];
	};
	const ours = new Map([
		['package.json', 'a1'],
		['dist/icons/socialContent.svg', 'b2'],
	]);

	test('finds a file only one build ships, either way, and a file whose bytes differ', () => {
		const n8n = new Map([
			['package.json', 'a1'],
			['dist/icons/socialContent.svg', 'c3'],
			['dist/docs/images/panel.png', 'd4'],
		]);
		expect(differences(n8n, ours)).toEqual([
			'differs: dist/icons/socialContent.svg',
			'only in n8n-node build: dist/docs/images/panel.png',
		]);
		expect(differences(new Map([['package.json', 'a1']]), ours)).toEqual([
			'only in npm run build: dist/icons/socialContent.svg',
		]);
		expect(differences(new Map(ours), ours)).toEqual([]);
	});

	test('runs in CI and in the release workflow, as part of npm run verify:n8n', () => {
		const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(manifest.scripts['verify:n8n']).toBe('n8n-node lint && node scripts/compare-builds.js');
		const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n');
		const publish = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
		expect(ci).toContain('npm run verify:n8n');
		expect(publish).toContain('- run: npm run verify:n8n');
	});
});

test('every package the tests, benchmarks and scripts import is declared in package.json', () => {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		devDependencies: Record<string, string>;
		peerDependencies: Record<string, string>;
	};
	const declared = new Set([
		...Object.keys(manifest.devDependencies),
		...Object.keys(manifest.peerDependencies),
	]);
	const files = ['test', 'bench', 'scripts', 'nodes', 'credentials']
		.flatMap((folder) => filesUnder(folder))
		.filter((path) => /\.(c?ts|c?js|mjs)$/.test(path));
	const imported = new Set(
		files.flatMap((path) =>
			[
				...readFileSync(join(ROOT, path), 'utf8').matchAll(
					/(?:from |require\(|import\()'([^.'/][^']*)'/g,
				),
			].map(([, specifier]) => specifier.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? specifier),
		),
	);
	// A package name (the pattern of a regular expression in a test is not one).
	const packageName = /^(@[a-z0-9-~][\w.~-]*\/)?[a-z0-9-~][\w.~-]*$/;
	const undeclared = [...imported].filter(
		(name) =>
			packageName.test(name) &&
			!name.startsWith('node:') &&
			!builtinModules.includes(name) &&
			!declared.has(name),
	);
	expect(undeclared).toEqual([]);
	expect(imported.size).toBeGreaterThan(10);
});
