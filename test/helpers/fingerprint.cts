/**
 * A fingerprint of the code a model-based soak checks: the trigger, the shared code it runs on
 * (transport, shapes, paging) and the test helpers. Soaks on one fingerprint check the same code,
 * so their cases add up across runs and sessions (BENCHMARKS.md keeps them). TypeScript is taken
 * without its comments and layout: a comment made shorter is the same code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

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
		hash.update(relative(ROOT, file)).update('\0').update(codeOf(file)).update('\0');
	return hash.digest('hex').slice(0, 12);
}

function codeOf(file: string): string {
	const text = readFileSync(file, 'utf8');
	if (!/\.c?ts$/.test(file)) return text;
	const options = { removeComments: true, target: ts.ScriptTarget.ES2022 };
	const { outputText } = ts.transpileModule(text, { compilerOptions: options, fileName: file });
	return outputText.replace(/^\s*\n/gm, '');
}
