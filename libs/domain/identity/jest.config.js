/** @type {import('jest').Config} */
module.exports = {
  displayName: 'domain-identity',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/../../platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../platform/src/testing/global-teardown.ts',
  // Most tests here hash or check passwords: argon2id at 64 MiB takes 100–300 ms each on a loaded
  // 2-core machine, and the lockout tests make seven or more, past jest's default of 5 s.
  testTimeout: 30_000,
};
