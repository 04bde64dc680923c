// The rules n8n's verification scanner applies: @n8n/eslint-plugin-community-nodes (recommended)
// on nodes/, credentials/ and package.json, plus eslint-plugin-n8n-nodes-base's community rules.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'examples/**', '*.js', '*.mjs'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [tseslint.configs.recommended],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		// The same exceptions as n8n's own node-cli config: this rule expects n8n's internal doc slugs.
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		// The same exceptions as n8n's own node-cli config: these predate NodeConnectionTypes.
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
