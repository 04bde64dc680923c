// Copies the icons and codex files that tsc does not emit into dist/, keeping their folders,
// so that `file:` icon paths and `*.node.json` codex files resolve the same in dist/ as in source.
const { src, dest, series } = require('gulp');

function copyIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:icons'] = series(copyIcons, copyCodex);
