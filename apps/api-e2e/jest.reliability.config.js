/**
 * The reliability tier (`npm run test:reliability`, and the second stage of `npm run test:all`):
 * properties held at counts where a rare bug would show. Trial counts scale with RELIABILITY_TRIALS_SCALE (default 1).
 * @type {import('jest').Config}
 */
module.exports = {
  ...require('./jest.config.js'),
  displayName: 'reliability',
  testMatch: ['<rootDir>/src/reliability/**/*.reliability-spec.ts'],
  testTimeout: 120000,
  // Jest's own default (one worker on 2 cores), not the e2e tests' count: the rows' trials load the cores themselves.
  maxWorkers: Math.max(1, require('node:os').availableParallelism() - 1),
};
