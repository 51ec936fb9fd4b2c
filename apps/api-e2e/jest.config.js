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
  // Each worker runs its files one after another on a database of its own (worker-databases.ts).
  // E2E_WORKERS sets how many (jest's default otherwise: one on two cores). `npm test` runs these
  // tests alone on two workers (tools/test/run-tests.ts); beside the portal's browser tests, two
  // workers overloaded two cores and tests timed out.
  ...(Number(process.env.E2E_WORKERS) > 0 ? { maxWorkers: Number(process.env.E2E_WORKERS) } : {}),
  globalSetup: '<rootDir>/../../libs/platform/src/testing/worker-databases.ts',
  setupFiles: ['<rootDir>/../../libs/platform/src/testing/worker-database.setup.ts'],
  // Drops the run's databases, or keeps them for the reliability tier's secrets-at-rest scan (src/support/test-artifacts.ts).
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/src/support/ledger-invariants.setup.ts', '<rootDir>/src/support/openapi-responses.setup.ts'],
  testTimeout: 30000,
};
