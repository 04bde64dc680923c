/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/'],
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
	globalSetup: '<rootDir>/test/globalSetup.js',
	setupFiles: ['<rootDir>/test/setup.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/secretLog.ts'],
	testTimeout: 30000,
	// The e2e suite spawns n8n, whose task-runner children can outlive it by a moment.
	forceExit: true,
};
