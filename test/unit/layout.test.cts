/**
 * The layout CONTRIBUTING.md describes, held: the trigger and nodes/shared/ never import from the
 * action node, and nodes/shared/shapes/ only reads answers (no requests, no node code).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder)).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

/** Where each relative import of a file points, as a path from the repository's root. */
function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(([, specifier]) =>
		relative(ROOT, resolve(ROOT, dirname(file), specifier)),
	);
}

test.each([...sourceFiles('nodes/SocialContentTrigger'), ...sourceFiles('nodes/shared')])(
	'%s imports nothing from the action node',
	(file) => {
		expect(importsOf(file).filter((target) => target.startsWith('nodes/SocialContent/'))).toEqual(
			[],
		);
	},
);

test.each(sourceFiles('nodes/shared/shapes'))('%s reads answers only', (file) => {
	const outside = importsOf(file).filter(
		(target) => !target.startsWith('nodes/shared/shapes') && target !== 'nodes/shared/dates',
	);
	expect(outside).toEqual([]);
});
