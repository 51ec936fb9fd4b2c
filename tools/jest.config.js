/** @type {import('jest').Config} */
module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  rootDir: '.',
  // Unit specs of the tools (no database): the CLIs' own checks. Benchmarks and scripts have none.
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
