// Before any suite: build the package into a clean dist/ (no files left from renamed sources), so the tests that
// read dist/ (what `npm pack` ships, the end-to-end install) see the current source, even right
// after a fresh `npm ci` with no build yet.
'use strict';
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
	execFileSync('npm', ['run', 'build', '--silent'], {
		cwd: join(__dirname, '..'),
		stdio: ['ignore', 'ignore', 'inherit'],
	});
};
