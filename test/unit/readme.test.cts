/**
 * The README is for users: it starts where they start (Install, and what to do while the package
 * is unreleased), keeps the two commands of the contract CI holds us to (the demo and `npm test`)
 * in its developer sections, at most 400 lines of at most 200 characters, the sections a user
 * looks for, and every local link pointing at a file that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const lines = readme.split('\n');

/** The line a command starts, and the last `## ` heading above it. */
function placeOf(command: string): { line: number; heading: string | undefined } {
	const line = lines.findIndex((text) => text.startsWith(command));
	const heading = lines
		.slice(0, line)
		.filter((text) => text.startsWith('## '))
		.at(-1);
	return { line, heading };
}

test('the two contract commands are in it: the demo under Try it from a clone, the tests under Develop', () => {
	expect(placeOf('npm ci && npm run demo').heading).toBe('## Try it from a clone');
	expect(placeOf('npm test').heading).toBe('## Develop');
	expect(
		lines.filter((line) => /^npm test\b/.test(line)).map((line) => line.split('#')[0].trim()),
	).toEqual(['npm test']);
});

test('starts where a user starts: Install comes before any developer section', () => {
	const headings = lines.filter((line) => line.startsWith('## '));
	const install = headings.indexOf('## Install');
	expect(install).toBeGreaterThanOrEqual(0);
	for (const developer of ['## Try it from a clone', '## Develop'])
		expect(headings.indexOf(developer)).toBeGreaterThan(install);
	// Nothing a developer runs comes before Install: the first command after the title is in it.
	const firstCommand = lines.findIndex((line) => /^(npm|git|docker|mkdir|cd) /.test(line.trim()));
	expect(firstCommand).toBeGreaterThan(lines.indexOf('## Install'));
});

test('says the package is not released yet, and how to install it meanwhile', () => {
	const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Credentials'));
	expect(install).toMatch(/not released yet/i);
	expect(install).toMatch(/^git clone https:\/\/github\.com\/.+\.git$/m);
	expect(install).toMatch(/npm pack/);
	// Each route says what to do with the packed file until the release.
	for (const route of ['**In n8n**', '**By hand**', '**Docker**', '**Queue mode**']) {
		const start = install.indexOf(route);
		expect(start).toBeGreaterThanOrEqual(0);
		const next = install.indexOf('\n- **', start + 1);
		expect(install.slice(start, next < 0 ? undefined : next)).toMatch(/until the release/i);
	}
});

test('installs into n8n without a second n8n-workflow: every package install there omits peers', () => {
	// npm installs a missing peer: n8n-workflow, and with it native modules to build (isolated-vm),
	// which fails without build tools; n8n brings its own, and its Community Nodes panel drops
	// peerDependencies before installing too.
	const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Credentials'));
	const installs = [
		...install.matchAll(/npm install [^`'\n]*n8n-nodes-social-content[^`'\n]*/g),
	].map(([command]) => command);
	expect(installs.length).toBeGreaterThanOrEqual(3);
	expect(installs.filter((command) => !command.includes('--omit=peer'))).toEqual([]);
});

test('N8N_COMMUNITY_PACKAGES is given as n8n 2.41.1 reads it: a JSON list of { name, version }', () => {
	// A list of plain names stops n8n 2.41.1 at start ("validation failed at "0": Expected object").
	const [, value] = readme.match(/N8N_COMMUNITY_PACKAGES='([^']+)'/) ?? [];
	const packages = JSON.parse(value) as unknown[];
	expect(packages).toEqual([{ name: 'n8n-nodes-social-content', version: expect.any(String) }]);
});

test('every `npm ci` comes after a `git clone` that gives the folder it runs in', () => {
	const clones = lines.flatMap((line, index) => (/\bgit clone\b/.test(line) ? [index] : []));
	const installs = lines.flatMap((line, index) => (/\bnpm ci\b/.test(line) ? [index] : []));
	expect(installs.length).toBeGreaterThan(0);
	for (const install of installs) {
		const heading = lines
			.slice(0, install)
			.filter((line) => line.startsWith('## '))
			.at(-1);
		const section = lines.lastIndexOf(heading as string, install);
		expect(clones.some((clone) => clone > section && clone <= install)).toBe(true);
	}
});

test('no line is over 200 characters', () => {
	expect(lines.filter((line) => line.length > 200)).toEqual([]);
});

test('speaks the user’s words, not the project’s', () => {
	expect(readme.replace(/SANDBOX_PORT/g, '')).not.toMatch(
		/sandbox|the real backend|open-source backend|reference model|classic (one|engine)|durable scheduler/i,
	);
});

test('every picture it shows exists, and every picture kept for it is shown', () => {
	const shown = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map(([, path]) => path);
	expect(shown.length).toBeGreaterThan(1);
	expect(shown.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
	// Files only: .github/images/editor/ holds the pictures of issue 69's closing note, not the README's.
	const kept = readdirSync(join(ROOT, '.github', 'images'), { withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => `.github/images/${entry.name}`);
	expect(kept.filter((path) => !shown.includes(path))).toEqual([]);
});

test('CI runs exactly the README’s test command', () => {
	const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
	expect(ci.split('\n').filter((line) => /^npm test\b/.test(line))).toEqual(['npm test']);
});

test('is at most 400 lines', () => {
	expect(lines.length).toBeLessThanOrEqual(401); // the last line ends with a newline
});

test('has the sections a user looks for, in order', () => {
	const headings = lines.filter((line) => line.startsWith('## ')).map((line) => line.slice(3));
	const wanted = [
		'Contents',
		'Install',
		'Credentials',
		'Operations',
		'The trigger',
		'Use it in an AI agent',
		'Examples',
		'Troubleshooting',
		'Compatibility',
		'Try it from a clone',
		'Develop',
		'Resources',
		'Version history',
	];
	expect(headings.filter((heading) => wanted.includes(heading))).toEqual(wanted);
	expect(readme).toMatch(/1\.60\.1 or later/);
	expect(readme).toMatch(/Queue mode/);
	expect(readme).toMatch(/\*\*Docker\*\*/);
	// Words from inside the project do not reach users.
	expect(readme).not.toMatch(/\bthe spec\b|cloud rules|earlier release/i);
	expect(readme).toContain('[CHANGELOG.md](CHANGELOG.md)');
});

test('every local link and every example it names exists', () => {
	const local = [...readme.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map(([, path]) => path);
	const examples = [...readme.matchAll(/`([\w-]+\.json)`/g)].map(([, file]) => `examples/${file}`);
	expect(local.length).toBeGreaterThan(3);
	expect([...local, ...examples].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
});

test('its table of contents points at headings it has', () => {
	const anchors = new Set(
		lines
			.filter((line) => /^#{2,3} /.test(line))
			.map((line) =>
				line
					.replace(/^#+ /, '')
					.toLowerCase()
					.replace(/[^\w\s-]/g, '')
					.replace(/\s/g, '-'),
			),
	);
	const targets = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor);
	expect(targets.filter((anchor) => !anchors.has(anchor))).toEqual([]);
});

/** GitHub's anchor for a heading: lower case, punctuation gone, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

test('every documentation link of the nodes and credentials lands on a README heading', () => {
	const anchors = new Set([
		'readme',
		...lines
			.filter((line) => /^#{1,6} /.test(line))
			.map((line) => anchorOf(line.replace(/^#+ /, ''))),
	]);
	const sources = [
		'credentials/SocialContentApi.credentials.ts',
		'credentials/SocialContentOAuth2Api.credentials.ts',
		'nodes/SocialContent/SocialContent.node.json',
		'nodes/SocialContentTrigger/SocialContentTrigger.node.json',
	];
	const links = sources.flatMap((file) =>
		[...readFileSync(join(ROOT, file), 'utf8').matchAll(/https:\/\/github\.com\/[^'"\s]+/g)].map(
			([url]) => ({ file, url }),
		),
	);
	expect(links.length).toBeGreaterThanOrEqual(sources.length);
	const broken = links.filter(({ url }) => {
		const [page, anchor] = url.split('#');
		return !page.endsWith('/n8n-nodes-social-content') || !anchor || !anchors.has(anchor);
	});
	expect(broken).toEqual([]);
});
