/**
 * Two kinds of tests:
 *  - src/**\/*.spec.ts(x): fast unit tests (node environment, no DOM);
 *  - test/**\/*.browser-spec.ts: builds the portal with Vite, serves it with `vite preview`
 *    and drives Chromium (CHROMIUM_PATH, default Debian's /usr/bin/chromium) through playwright-core.
 * The generous timeout is for the browser tests (Vite build + browser start in beforeAll).
 *
 * @type {import('jest').Config}
 */
module.exports = {
  displayName: 'portal',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.{ts,tsx}', '<rootDir>/test/**/*.browser-spec.ts'],
  // The session browser tests boot the real API on a fresh database, as apps/api-e2e does.
  globalSetup: '<rootDir>/../../libs/platform/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/../../libs/platform/src/testing/global-teardown.ts',
  testTimeout: 60000,
  passWithNoTests: false,
};
