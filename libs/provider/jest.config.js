const path = require('node:path');
const preset = require('../../jest.preset.js');

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'provider',
  preset: '../../jest.preset.js',
  rootDir: '.',
  // The official Paystack SDK (conformance suite): its CommonJS build cannot construct its
  // `Paystack` class (the build lists `__esModule` among the resources), so its ES module build
  // is used, compiled like our own sources.
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    '^@paystack/paystack-sdk$': path.join(__dirname, '../../node_modules/@paystack/paystack-sdk/dist/esm/index.js'),
  },
  transformIgnorePatterns: ['/node_modules/(?!@paystack/paystack-sdk/)'],
};
