/** @type {import('jest').Config} */
module.exports = {
  displayName: 'domain-developers',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/../../platform/src/testing/worker-databases.ts',
  setupFiles: ['<rootDir>/../../platform/src/testing/worker-database.setup.ts'],
  globalTeardown: '<rootDir>/../../platform/src/testing/global-teardown.ts',
};
