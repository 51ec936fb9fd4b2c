/** @type {import('jest').Config} */
module.exports = {
  displayName: 'platform',
  preset: '../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/global-teardown.ts',
};
