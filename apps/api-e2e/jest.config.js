// Every answer the API gives the e2e tests is checked against its OpenAPI document
// (src/support/openapi-responses.ts); E2E_VALIDATE_RESPONSES=0 turns the check off for a run.
process.env.E2E_VALIDATE_RESPONSES ??= '1';

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api-e2e',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // libs/sdk is ES modules (for Node and browsers): its relative imports name the emitted `.js` file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/../../libs/platform/src/testing/global-setup.ts',
  // Drops the run's database, or keeps it for the reliability tier's secrets-at-rest scan (src/support/test-artifacts.ts).
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/src/support/ledger-invariants.setup.ts', '<rootDir>/src/support/openapi-responses.setup.ts'],
  testTimeout: 30000,
};
