/** @type {import('jest').Config} */
module.exports = {
  displayName: 'platform',
  preset: '../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/src/testing/worker-databases.ts',
  setupFiles: ['<rootDir>/src/testing/worker-database.setup.ts'],
  globalTeardown: '<rootDir>/src/testing/global-teardown.ts',
};
