/** @type {import('jest').Config} */
module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  rootDir: '.',
  passWithNoTests: false,
};
