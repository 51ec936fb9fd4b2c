/**
 * The reliability tier (`npm run test:reliability`, and part of `npm test`): properties held at
 * counts where a rare bug would show. Trial counts scale with RELIABILITY_TRIALS_SCALE (default 1).
 * @type {import('jest').Config}
 */
module.exports = {
  ...require('./jest.config.js'),
  displayName: 'reliability',
  testMatch: ['<rootDir>/src/reliability/**/*.reliability-spec.ts'],
  testTimeout: 120000,
};
