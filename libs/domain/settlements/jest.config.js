/** @type {import('jest').Config} */
module.exports = {
  displayName: 'domain-settlements',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/../../platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../platform/src/testing/global-teardown.ts',
  // Approvals create staff accounts: argon2 hashes of 64 MiB each, slow on a busy 2-core machine.
  testTimeout: 30_000,
};
