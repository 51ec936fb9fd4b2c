/** @type {import('jest').Config} */
module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
