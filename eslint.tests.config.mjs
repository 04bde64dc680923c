// The tests' and benchmarks' own lint config. `eslint.config.mjs` is n8n's default, unchanged
// (strict mode and `n8n-node cloud-support` require it), and lints every `**/*.ts` with the rules
// for code that runs inside n8n. The tests are `.cts` files: they start n8n, wait on the clock and
// read files, so here n8n's same config applies to them with those in-n8n rules off, and only
// those. `npm run lint` runs both configs.
import { config } from '@n8n/node-cli/eslint';

const forTests = config
	.filter((block) => !block.files || block.files.includes('**/*.ts'))
	.map((block) => (block.files ? { ...block, files: ['**/*.cts'] } : block));

export default [
	...forTests,
	{
		files: ['**/*.cts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
		},
	},
	// The benchmarks report on the console; a test says why where it does.
	{ files: ['bench/**/*.cts'], rules: { 'no-console': 'off' } },
];
