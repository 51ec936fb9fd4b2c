/** @type {import('jest').Config} */
module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  rootDir: '.',
  // Unit specs of the tools (no database): the CLIs' and the build's own checks. Benchmarks have none.
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
