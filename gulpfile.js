// Copies the icons that tsc does not emit into dist/, keeping their folders, so that `file:` icon
// paths resolve the same in dist/ as in source. (tsc emits the *.node.json codex files itself:
// tsconfig.json includes them, as n8n's starter does, so `n8n-node build` ships them too.)
const { rmSync } = require('node:fs');
const { src, dest } = require('gulp');

function copyIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

/** A build starts from an empty dist/, so nothing removed from the source lingers in the package. */
function clean(done) {
	rmSync('dist', { recursive: true, force: true });
	done();
}

exports.clean = clean;
exports['build:icons'] = copyIcons;
