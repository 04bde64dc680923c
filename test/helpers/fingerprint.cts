/**
 * A fingerprint of the code a model-based soak checks: the nodes and the test helpers. Soaks run
 * on the same fingerprint check the same code, so their cases add up (BENCHMARKS.md keeps them).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function filesUnder(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true })
		.flatMap((entry) => {
			const path = join(folder, entry.name);
			return entry.isDirectory() ? filesUnder(path) : [path];
		})
		.sort();
}

export function codeFingerprint(): string {
	const hash = createHash('sha256');
	for (const file of [
		...filesUnder(join(ROOT, 'nodes')),
		...filesUnder(join(ROOT, 'test', 'helpers')),
	])
		hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
	return hash.digest('hex').slice(0, 12);
}
