/**
 * A release goes out only from the release workflow: `npm publish` anywhere else is refused for
 * want of a provenance statement before anything is uploaded, and the workflow refuses to publish
 * while package.json's author, repository or homepage are the placeholders it started with.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const metadata = require('../../scripts/check-release-metadata.js') as {
	problems(pkg: object, repository: string): string[];
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const MAINTAINERS = {
	author: { name: 'Ada Lovelace', email: 'ada@example.org' },
	repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-social-content.git' },
	homepage: 'https://github.com/acme/n8n-nodes-social-content#readme',
};

describe('release metadata guard', () => {
	it('refuses the placeholders package.json holds now, naming each field', () => {
		const found = metadata.problems(pkg, 'acme/n8n-nodes-social-content');
		expect(found.join('\n')).toMatch(/author is still a placeholder/);
		expect(found.join('\n')).toMatch(/repository\.url is still a placeholder/);
		expect(found.join('\n')).toMatch(/homepage is still a placeholder/);
	});

	it('accepts the maintainers’ values', () => {
		expect(metadata.problems({ ...pkg, ...MAINTAINERS }, 'acme/n8n-nodes-social-content')).toEqual(
			[],
		);
		expect(
			metadata.problems({ ...pkg, ...MAINTAINERS, author: 'Ada <ada@example.org>' }, ''),
		).toEqual([]);
	});

	it.each([
		['author', { author: pkg.author }, /author is still a placeholder/],
		['author (empty)', { author: '' }, /author is empty/],
		['homepage', { homepage: pkg.homepage }, /homepage is still a placeholder/],
		['repository.url', { repository: pkg.repository }, /repository\.url is still a placeholder/],
		[
			'repository.url (another one)',
			{ repository: { url: 'https://github.com/other/fork.git' } },
			/is not github\.com\/acme\/n8n-nodes-social-content/,
		],
	])('refuses a placeholder or wrong %s alone', (_name, change, message) => {
		const found = metadata.problems(
			{ ...pkg, ...MAINTAINERS, ...change },
			'acme/n8n-nodes-social-content',
		);
		// Only that field is named (a placeholder repository is also not this repository).
		expect(found.length).toBeGreaterThan(0);
		expect(found.every((problem) => problem.startsWith(_name.split(' ')[0]))).toBe(true);
		expect(found.some((problem) => message.test(problem))).toBe(true);
	});

	it('runs in the release workflow before the build and the publish', () => {
		const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
		const guard = workflow.indexOf('node scripts/check-release-metadata.js "${GITHUB_REPOSITORY}"');
		expect(guard).toBeGreaterThan(0);
		expect(guard).toBeLessThan(workflow.indexOf('npm run build'));
		expect(guard).toBeLessThan(workflow.indexOf('npm publish --provenance'));
	});
});

describe('npm publish outside the release workflow', () => {
	it('is refused for want of provenance, and the registry receives nothing', async () => {
		expect(pkg.publishConfig).toMatchObject({ provenance: true });
		const received: string[] = [];
		const registry = createServer((request: IncomingMessage, response) => {
			received.push(`${request.method} ${request.url}`);
			response.writeHead(404).end(); // no such package yet
		});
		await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
		// A plain shell: no CI provider npm could take an identity from, and no npm settings
		// inherited from the npm that runs the tests (`npm run -s` would silence the refusal).
		const env = Object.fromEntries(
			Object.entries(process.env).filter(
				([name]) => !/^(GITHUB_|GITLAB_|CI_|ACTIONS_|npm_config_)/.test(name) && name !== 'CI',
			),
		);
		const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
			execFile(
				'npm',
				[
					'publish',
					'--registry',
					url,
					`--${url.replace(/^http:/, '')}:_authToken=not-a-real-token`,
				],
				{ cwd: ROOT, env },
				(error, stdout, stderr) =>
					resolve({ code: Number(error?.code ?? 0), output: `${stdout}${stderr}` }),
			),
		);
		await new Promise((resolve) => registry.close(resolve));
		expect(code).not.toBe(0);
		expect(output).toContain('Automatic provenance generation not supported for provider: null');
		expect(received.filter((line) => line.startsWith('PUT'))).toEqual([]);
	}, 120_000);
});
