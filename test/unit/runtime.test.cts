/** The real n8n the demo and the e2e suites start: its encryption key, per user folder (#51). */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../scripts/n8n-runtime.js') as {
	encryptionKeyFor: (userFolder: string) => string;
	n8nEnv: (
		nodeBin: string,
		userFolder: string,
		port: number,
		brokerPort: number,
	) => Record<string, string>;
};

test('each n8n folder gets its own random encryption key, kept for its restarts, readable by its owner only', () => {
	const root = mkdtempSync(join(tmpdir(), 'sc-key-'));
	try {
		const first = join(root, 'one');
		const second = join(root, 'two');
		const key = runtime.encryptionKeyFor(first);
		expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(runtime.encryptionKeyFor(first)).toBe(key);
		expect(runtime.n8nEnv('/bin', first, 1, 2).N8N_ENCRYPTION_KEY).toBe(key);
		expect(runtime.encryptionKeyFor(second)).not.toBe(key);
		expect(statSync(first).mode & 0o777).toBe(0o700);
		expect(statSync(join(first, '.encryption-key')).mode & 0o777).toBe(0o600);
		expect(readFileSync(join(first, '.encryption-key'), 'utf8')).toBe(key);
		const source = readFileSync(join(__dirname, '..', '..', 'scripts', 'n8n-runtime.js'), 'utf8');
		expect(source).not.toMatch(/N8N_ENCRYPTION_KEY: '/);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
});
