import baseConfig from '../../eslint.config.mjs';

/**
 * The workspace rules, except that the quickstart is written as a user's code: it imports the
 * package by its name, as the README shows it. ESLint 9 resolves the config from the working
 * directory, so the sdk's `lint` target passes this file explicitly.
 */
export default [
  ...baseConfig,
  {
    files: ['libs/sdk/examples/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
