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
  {
    // The browser tests boot the real API in-process (as apps/api-e2e does, with its provider simulator) and share its helpers;
    // the portal's own code (src/) still imports only @gateway/contracts.
    files: ['apps/portal/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@gateway/api', '@gateway/domain/identity', '@gateway/platform', '@gateway/platform/testing', '@gateway/provider-sim', '@gateway/domain/api-keys', '../../../api-e2e/src/support/portal-client', '../../../api-e2e/src/support/scheduler-process', '../../../api-e2e/src/support/gateway', '../../../api-e2e/src/support/chromium', '../../api-e2e/src/support/chromium', '../../../api-e2e/src/support/webhook-receiver'],
          depConstraints: [{ sourceTag: 'type:portal', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:domain', 'type:app', 'type:e2e'] }],
        },
      ],
    },
  },
];
