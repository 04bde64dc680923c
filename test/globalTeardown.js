// After the last suite: the package tarball the run shared (test/globalSetup.js) goes.
'use strict';
const { rmSync } = require('node:fs');
const { dirname } = require('node:path');

module.exports = async () => {
	const tarball = process.env.SC_PACKAGE_TARBALL;
	if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
};
