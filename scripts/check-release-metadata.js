#!/usr/bin/env node
// The release workflow's guard: refuse to publish while package.json's author, repository or
// homepage still hold the values this repository was started with (the maintainers set theirs at
// the first release; CONTRIBUTING.md, Releasing), or while repository.url does not name the
// repository the workflow runs in (npm rejects a provenance statement that does not match).
// Usage: node scripts/check-release-metadata.js [owner/name]   (default: $GITHUB_REPOSITORY)
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** The starting values: any field still holding one of these is a placeholder. */
const PLACEHOLDERS = [
	'n8n-nodes-social-content/n8n-nodes-social-content',
	'n8n-nodes-social-content contributors',
	'maintainers@n8n-nodes-social-content.dev',
];

function problems(pkg, repository) {
	const author = typeof pkg.author === 'string' ? pkg.author : JSON.stringify(pkg.author ?? '');
	const fields = {
		author,
		'repository.url': String(pkg.repository?.url ?? pkg.repository ?? ''),
		homepage: String(pkg.homepage ?? ''),
	};
	const found = [];
	for (const [name, value] of Object.entries(fields)) {
		if (!value || value === '""') found.push(`${name} is empty`);
		else if (PLACEHOLDERS.some((placeholder) => value.includes(placeholder)))
			found.push(`${name} is still a placeholder (${value})`);
	}
	if (repository && !fields['repository.url'].includes(`github.com/${repository}`))
		found.push(`repository.url (${fields['repository.url']}) is not github.com/${repository}`);
	return found;
}

if (require.main === module) {
	const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
	const found = problems(pkg, process.argv[2] || process.env.GITHUB_REPOSITORY || '');
	if (found.length > 0) {
		console.error(
			`Not publishing: ${found.join('; ')}.\nSet author, repository and homepage in package.json (CONTRIBUTING.md, Releasing).`,
		);
		process.exit(1);
	}
	console.log('package.json: author, repository and homepage are set.');
}

module.exports = { problems, PLACEHOLDERS };
