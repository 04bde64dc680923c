/**
 * The n8n the e2e suites and the demo run is the tree test/e2e/n8n-runtime/package-lock.json
 * pins: install-n8n.sh installs it with `npm ci`, so a fresh machine gets the tree that was tested,
 * whatever the registry holds that minute. Every package the lockfile names for this platform is
 * installed at its version, and nothing else is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const RUNTIME = join(__dirname, 'n8n-runtime');

interface LockEntry {
	version?: string;
	optional?: boolean;
	os?: string[];
	cpu?: string[];
	libc?: string[];
	link?: boolean;
}

const manifest = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8')) as {
	dependencies: Record<string, string>;
	overrides: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(RUNTIME, 'package-lock.json'), 'utf8')) as {
	packages: Record<string, LockEntry & { dependencies?: Record<string, string> }>;
};
const VERSION = manifest.dependencies.n8n;

// The first install takes minutes (one installer at a time per cache: another suite may hold it).
jest.setTimeout(30 * 60_000);

/** Whether npm installs an entry restricted by os, cpu or libc here (`!x` excludes x). */
function forThisPlatform(entry: LockEntry): boolean {
	const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
	const libc = report.header?.glibcVersionRuntime ? 'glibc' : 'musl';
	const allows = (list: string[] | undefined, value: string) =>
		!list ||
		(!list.includes(`!${value}`) &&
			(list.every((item) => item.startsWith('!')) || list.includes(value)));
	return (
		allows(entry.os, process.platform) &&
		allows(entry.cpu, process.arch) &&
		(process.platform !== 'linux' || allows(entry.libc, libc))
	);
}

/** Every package folder under a node_modules folder, nested ones included, as lockfile keys. */
function installedPackages(root: string, prefix = 'node_modules'): string[] {
	const folder = join(root, prefix);
	if (!existsSync(folder)) return [];
	return readdirSync(folder)
		.filter((name) => !name.startsWith('.'))
		.flatMap((name) =>
			name.startsWith('@')
				? readdirSync(join(folder, name)).map((scoped) => `${prefix}/${name}/${scoped}`)
				: [`${prefix}/${name}`],
		)
		.flatMap((key) => [key, ...installedPackages(root, `${key}/node_modules`)]);
}

describe(`the n8n ${VERSION} of the e2e suites and the demo`, () => {
	let installed = '';

	beforeAll(() => {
		const out = execFileSync('bash', [join(ROOT, 'test', 'e2e', 'install-n8n.sh')], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, N8N_VERSION: VERSION, NODE_MAJOR: '24' },
		});
		installed = join(out.trim().split('\n').pop() as string, `n8n-${VERSION}`);
	});

	test('is pinned: the lockfile is for that package.json, with the overrides the install uses', () => {
		expect(lock.packages[''].dependencies).toEqual(manifest.dependencies);
		expect(lock.packages['node_modules/n8n'].version).toBe(VERSION);
		expect(lock.packages['node_modules/linkedom'].version).toBe(manifest.overrides.linkedom);
		// npm's first resolution can leave entries no package needs, which `npm ci` skips.
		const extraneous = Object.entries(lock.packages).filter(
			([, entry]) => (entry as { extraneous?: boolean }).extraneous,
		);
		expect(extraneous.map(([key]) => key)).toEqual([]);
		// The default of the install script and of the scripts that call it.
		const script = readFileSync(join(__dirname, 'install-n8n.sh'), 'utf8');
		expect(script).toContain(`N8N_VERSION="\${N8N_VERSION:-${VERSION}}"`);
		expect(readFileSync(join(ROOT, 'scripts', 'n8n-runtime.js'), 'utf8')).toContain(
			`process.env.N8N_VERSION || '${VERSION}'`,
		);
	});

	test('was installed from the lockfile it pins (its checksum marks the install complete)', () => {
		const lockfile = readFileSync(join(RUNTIME, 'package-lock.json'));
		expect(readFileSync(join(installed, 'package-lock.json')).equals(lockfile)).toBe(true);
		const sum = execFileSync('sha256sum', { input: lockfile, encoding: 'utf8' }).split(' ')[0];
		expect(readFileSync(join(installed, '.complete'), 'utf8').trim()).toBe(sum);
	});

	test('holds every package of the lockfile at its version, and no other', () => {
		const wrong: string[] = [];
		const missing: string[] = [];
		for (const [key, entry] of Object.entries(lock.packages)) {
			if (key === '' || entry.link) continue;
			const file = join(installed, key, 'package.json');
			if (!existsSync(file)) {
				if (!(entry.optional && !forThisPlatform(entry))) missing.push(key);
				continue;
			}
			const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
			if (version !== entry.version) wrong.push(`${key}: ${version}, locked ${entry.version}`);
		}
		const extra = installedPackages(installed).filter((key) => !(key in lock.packages));
		expect({ missing, wrong, extra }).toEqual({ missing: [], wrong: [], extra: [] });
		// Not an empty comparison: n8n's tree is some two thousand packages.
		expect(Object.keys(lock.packages).length).toBeGreaterThan(2000);
	});
});
