/** @type {import('jest').Config} */
module.exports = {
  displayName: 'provider',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
