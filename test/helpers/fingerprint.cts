/**
 * A fingerprint of the code a model-based soak checks: the trigger, the shared code it runs on
 * (transport, shapes, paging) and the test helpers. Soaks on one fingerprint check the same code,
 * so their cases add up across runs and sessions (BENCHMARKS.md keeps them).
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
	const folders = [
		['nodes', 'SocialContentTrigger'],
		['nodes', 'shared'],
		['test', 'helpers'],
	];
	for (const file of folders.flatMap((folder) => filesUnder(join(ROOT, ...folder))))
		hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
	return hash.digest('hex').slice(0, 12);
}
