/**
 * An old release's own code, read from this repository's git history, so upgrade tests build old
 * states with the code that wrote them (not with a copy that may drift from it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';

const REPO_ROOT = resolve(__dirname, '../..');

/** The module at `path` as it stood at `commit`, transpiled and loaded. It may import types only. */
export function loadAtCommit<Module>(commit: string, path: string): Module {
	let source: string;
	try {
		source = execFileSync('git', ['show', `${commit}:${path}`], {
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		throw new Error(
			`${path} at ${commit} is not in this checkout's git history: run the tests in a full clone (not a shallow one or an export). ${(error as Error).message}`,
		);
	}
	const { outputText } = ts.transpileModule(source, {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
	});
	const file = join(mkdtempSync(join(tmpdir(), 'legacy-')), `${basename(path, '.ts')}.js`);
	writeFileSync(file, outputText);
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file written at run time
	return require(file) as Module;
}
