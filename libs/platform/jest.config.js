/** @type {import('jest').Config} */
module.exports = {
  displayName: 'platform',
  preset: '../../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
};
