/** @type {import('jest').Config} */
module.exports = {
  displayName: 'scheduler',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // Job integration tests (*.int-spec.ts) run on a fresh migrated database, one per worker.
  globalSetup: '<rootDir>/../../libs/platform/src/testing/worker-databases.ts',
  setupFiles: ['<rootDir>/../../libs/platform/src/testing/worker-database.setup.ts'],
  globalTeardown: '<rootDir>/../../libs/platform/src/testing/global-teardown.ts',
};
