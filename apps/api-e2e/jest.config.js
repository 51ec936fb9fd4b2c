/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api-e2e',
  preset: '../../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
};
