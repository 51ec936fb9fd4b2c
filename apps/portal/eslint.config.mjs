import reactHooks from 'eslint-plugin-react-hooks';
import baseConfig from '../../eslint.config.mjs';

/**
 * The workspace rules plus React's hook rules for the portal's components and hooks.
 * ESLint 9 resolves the config from the working directory, so the portal's `lint` target
 * passes this file explicitly: `eslint -c apps/portal/eslint.config.mjs apps/portal`.
 */
export default [
  ...baseConfig,
  {
    files: ['apps/portal/**/*.ts', 'apps/portal/**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
];
