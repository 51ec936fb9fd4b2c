/** @type {import('jest').Config} */
module.exports = {
  displayName: 'domain-settlements',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  globalSetup: '<rootDir>/../../platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../platform/src/testing/global-teardown.ts',
};
