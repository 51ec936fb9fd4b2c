/** @type {import('jest').Config} */
module.exports = {
  displayName: 'domain-developers',
  preset: '../../../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
};
