// TypeScript spells an import of a `.cts` module with `.cjs` (`'./harness.cjs'`): when no such
// `.cjs` file exists, the `.cts` source is what is meant. Real `.cjs` files (in node_modules)
// resolve as usual.
module.exports = (request, options) => {
	try {
		return options.defaultResolver(request, options);
	} catch (error) {
		if (!/^\.{1,2}\/.*\.cjs$/.test(request)) throw error;
		return options.defaultResolver(request.replace(/\.cjs$/, '.cts'), options);
	}
};
