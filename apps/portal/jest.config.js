/**
 * Two kinds of tests:
 *  - src/**\/*.spec.ts(x): fast unit tests (node environment, no DOM);
 *  - test/**\/*.browser-spec.ts: serve the portal's build with `vite preview` (Nx's `portal:build` when run
 *    through Nx, otherwise one `vite build` per run: test/support/portal-build.ts)
 *    and drive Chromium (CHROMIUM_PATH, default Debian's /usr/bin/chromium) through playwright-core.
 * The generous timeout is for the browser tests (Vite build + browser start in beforeAll).
 *
 * @type {import('jest').Config}
 */
module.exports = {
  displayName: 'portal',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.{ts,tsx}', '<rootDir>/test/**/*.browser-spec.ts'],
  // The browser tests boot the real API on a fresh database, as apps/api-e2e does: one per worker
  // (libs/platform/src/testing/worker-databases.ts). The setup also names the directory of the
  // run's one `vite build` when it makes one (test/support/portal-build.ts). PORTAL_WORKERS sets how many workers
  // (jest's default otherwise: one on two cores). `npm test` runs these tests alone on two workers
  // (tools/test/run-tests.ts); beside other tests, two overloaded two cores.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  setupFiles: ['<rootDir>/../../libs/platform/src/testing/worker-database.setup.ts'],
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  ...(Number(process.env.PORTAL_WORKERS) > 0 ? { maxWorkers: Number(process.env.PORTAL_WORKERS) } : {}),
  testTimeout: 60000,
  passWithNoTests: false,
};
