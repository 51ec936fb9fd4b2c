/** @type {import('jest').Config} */
module.exports = {
  displayName: 'scheduler',
  preset: '../../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
  // Job integration tests (*.int-spec.ts) run on a fresh migrated database of their own.
  globalSetup: '<rootDir>/../../libs/platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../libs/platform/src/testing/global-teardown.ts',
};
