/**
 * The README is for users: the two commands on top (the contract CI holds us to), at most 400
 * lines, the sections a user looks for, and every local link pointing at a file that exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const lines = readme.split('\n');

test('the two commands are the first two, near the top, under Try it and Develop', () => {
	const commands = lines.filter((line) => /^(npm|docker|mkdir|[A-Z_]+=)/.test(line));
	expect(commands.slice(0, 2).map((line) => line.split('#')[0].trim())).toEqual([
		'npm ci && npm run demo',
		'npm test',
	]);
	const under = (command: string) =>
		lines
			.slice(
				0,
				lines.findIndex((line) => line.startsWith(command)),
			)
			.filter((line) => line.startsWith('## '))
			.at(-1);
	expect([under('npm ci && npm run demo'), under('npm test')]).toEqual(['## Try it', '## Develop']);
	expect(lines.findIndex((line) => line.startsWith('npm test'))).toBeLessThan(45);
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
		'Try it',
		'Develop',
		'Contents',
		'Install',
		'Credentials',
		'Operations',
		'The trigger',
		'Use it in an AI agent',
		'Examples',
		'Troubleshooting',
		'Compatibility',
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
