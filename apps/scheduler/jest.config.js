/** @type {import('jest').Config} */
module.exports = {
  displayName: 'scheduler',
  preset: '../../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
};
