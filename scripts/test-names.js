// Prints every test of `npm test` as "file › full name", one per line, sorted, without running any
// (jest skips all of them, and the suites' set-up with them). What docs/test-names/ holds.
//   node scripts/test-names.js > docs/test-names/after.txt
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = process.argv[2] ?? join(__dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'sc-names-'));
try {
	const file = join(out, 'names.json');
	execFileSync('npx', ['jest', '-t', '^no test has this name$', '--json', `--outputFile=${file}`], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'ignore'],
	});
	const { testResults } = JSON.parse(readFileSync(file, 'utf8'));
	const names = testResults.flatMap((suite) =>
		suite.assertionResults.map(
			(test) => `${suite.name.slice(root.length + 1).replace(/\.ts$/, '.cts')} › ${test.fullName}`,
		),
	);
	process.stdout.write(`${names.sort().join('\n')}\n`);
} finally {
	rmSync(out, { recursive: true, force: true });
}
