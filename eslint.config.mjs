// n8n's own config (@n8n/node-cli, what `n8n-node lint` and the verification scanner apply), with
// one addition: the tests, benchmarks and scripts are not node code. They start n8n, time things
// and read files, so the rules written for code that runs inside n8n (no process, no timers, no
// node: imports, no child processes, fixed test keys) are off there, and only there.
// Why this keeps the package from `n8n-node cloud-support`'s "eligible": CONTRIBUTING.md, Lint.
import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
		},
	},
	// The benchmarks and scripts report on the console; a test says why where it does.
	{ files: ['bench/**/*.ts', 'scripts/**/*.ts'], rules: { 'no-console': 'off' } },
];
