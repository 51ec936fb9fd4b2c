/** @type {import('jest').Config} */
module.exports = {
  displayName: 'sdk',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // The sources are ES modules for Node and browsers, so relative imports name the emitted `.js` file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
