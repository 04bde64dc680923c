// Before any suite: dist/ holds the build of the sources as they are, in a clean dist/ (no files left
// from renamed sources), so the tests that read dist/ (what `npm pack` ships, the end-to-end
// install) see the current source, even right after a fresh `npm ci` with no build yet. Built only
// when a source changed since the last build (test/buildStamp.js): the quick loop does not rebuild.
'use strict';
const { execFileSync } = require('node:child_process');
const {
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} = require('node:fs');
const { packPackage } = require('../scripts/n8n-runtime');
const { isBuilt, mayStartN8n, recordBuild } = require('./buildStamp');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** n8n folders of earlier runs that were stopped before their cleanup (their process is gone). */
function removeOrphanedN8nFolders() {
	for (const name of readdirSync(tmpdir())) {
		if (!/^sc-(n8n|pack)-/.test(name)) continue;
		const folder = join(tmpdir(), name);
		let owner;
		try {
			owner = Number(readFileSync(join(folder, '.owner-pid'), 'utf8'));
		} catch {
			// No owner written (older runs, packs): old enough to be an orphan.
			try {
				if (Date.now() - statSync(folder).mtimeMs < 6 * 3600_000) continue;
			} catch {
				continue;
			}
		}
		if (owner && isAlive(owner)) continue;
		rmSync(folder, { recursive: true, force: true });
	}
}

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

module.exports = async (globalConfig) => {
	removeOrphanedN8nFolders();
	const root = join(__dirname, '..');
	if (!isBuilt(root)) {
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: root,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		recordBuild(root);
	}
	// Only a run that may start a real n8n needs the package packed (`jest test/unit` does not).
	if (!mayStartN8n(root, globalConfig?.testPathPattern)) return;
	// Packed once for the whole run: each real n8n of the e2e suites (and the demo they start)
	// unpacks this tarball instead of compiling and packing again (scripts/n8n-runtime.js).
	const packDir = mkdtempSync(join(tmpdir(), 'sc-pack-'));
	writeFileSync(join(packDir, '.owner-pid'), String(process.pid));
	process.env.SC_PACKAGE_TARBALL = packPackage(packDir, { compile: false });
};
