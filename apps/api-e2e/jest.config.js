/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api-e2e',
  preset: '../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/../../libs/platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../libs/platform/src/testing/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/src/support/ledger-invariants.setup.ts'],
  testTimeout: 30000,
};
