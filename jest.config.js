/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	// Tests are `.cts` (CommonJS TypeScript): n8n's default lint config, which strict mode
	// requires unchanged, covers `**/*.ts` with the rules for code that runs inside n8n;
	// the tests start n8n and use the clock, and are linted by eslint.tests.config.mjs instead.
	transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	moduleFileExtensions: ['ts', 'cts', 'js', 'json'],
	resolver: '<rootDir>/test/resolver.js',
	testMatch: ['<rootDir>/test/**/*.test.cts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/'],
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
	globalSetup: '<rootDir>/test/globalSetup.js',
	testSequencer: '<rootDir>/test/sequencer.js',
	globalTeardown: '<rootDir>/test/globalTeardown.js',
	setupFiles: ['<rootDir>/test/setup.cts'],
	setupFilesAfterEnv: ['<rootDir>/test/secretLog.cts', '<rootDir>/test/skipWaits.cts'],
	testTimeout: 30000,
	// Two workers on the 2-core machines this runs on: the trigger-engine e2e (n8n polls once a
	// minute, so it mostly waits) runs beside everything else. Measured: 438 s instead of 898 s.
	maxWorkers: 2,
	// The e2e suite spawns n8n, whose task-runner children can outlive it by a moment.
	forceExit: true,
};
