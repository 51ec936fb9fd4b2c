/** @type {import('jest').Config} */
module.exports = {
  displayName: 'provider-sim',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
