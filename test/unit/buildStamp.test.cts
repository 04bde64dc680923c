/**
 * `npm run test:unit` is the quick loop: test/globalSetup.js rebuilds dist/ only when a source
 * changed since the last build, and packs the package only for a run that may start a real n8n
 * (test/buildStamp.js). Each case on a folder of its own, laid out as the repository is.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isBuilt, mayStartN8n, recordBuild } = require('../buildStamp.js') as {
	isBuilt(root: string): boolean;
	mayStartN8n(root: string, testPathPattern?: string): boolean;
	recordBuild(root: string): void;
};

let root: string;

function write(path: string, text: string): void {
	mkdirSync(join(root, path, '..'), { recursive: true });
	writeFileSync(join(root, path), text);
}

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'sc-stamp-'));
	write('package.json', '{"name":"x"}');
	write('tsconfig.json', '{}');
	write('nodes/Node/Node.node.ts', 'export const a = 1;');
	write('icons/node.svg', '<svg/>');
	write('dist/nodes/Node/Node.node.js', 'exports.a = 1;');
	write('test/e2e/n8n.e2e.test.cts', '');
	write('test/unit/hints.test.cts', '');
});

afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

describe('dist/ is rebuilt only when it is not the build of the sources as they are', () => {
	test('no build recorded (a fresh clone, or after npm ci): build', () => {
		expect(isBuilt(root)).toBe(false);
	});

	test('nothing changed since the last build: no build', () => {
		recordBuild(root);
		expect(isBuilt(root)).toBe(true);
	});

	test('a source, an icon or the compiler settings changed: build', () => {
		for (const [path, text] of [
			['nodes/Node/Node.node.ts', 'export const a = 2;'],
			['nodes/Node/New.ts', 'export {};'],
			['icons/node.svg', '<svg></svg>'],
			['tsconfig.json', '{"compilerOptions":{}}'],
		]) {
			recordBuild(root);
			write(path, text);
			expect({ path, built: isBuilt(root) }).toEqual({ path, built: false });
		}
	});

	test('dist/ changed or went since (another build, a file removed): build', () => {
		recordBuild(root);
		utimesSync(join(root, 'dist/nodes/Node/Node.node.js'), new Date(0), new Date(0));
		expect(isBuilt(root)).toBe(false);
		recordBuild(root);
		rmSync(join(root, 'dist'), { recursive: true });
		expect(isBuilt(root)).toBe(false);
	});
});

describe('the package is packed only for a run that may start a real n8n', () => {
	test.each([
		['npm test (every suite)', undefined, true],
		['npm run test:e2e', 'test/e2e', true],
		['one e2e suite', 'test/e2e/n8n.e2e.test.cts', true],
		['npm run test:unit', 'test/unit', false],
		['one unit suite', 'test/unit/hints.test.cts', false],
	])('%s', (_run, pattern, packs) => {
		expect(mayStartN8n(root, pattern)).toBe(packs);
	});
});
