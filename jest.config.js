/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/'],
	testTimeout: 30000,
};
