import nx from '@nx/eslint-plugin';
export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/vite.config.*.timestamp*', 'tmp/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // Dependencies point one way: apps → domain → provider/platform → contracts.
      // The portal sees contracts only.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The black-box suite boots the API app in-process (to inject a clock); nothing else may import
          // an app. Where the provider simulator may be imported is granted per folder below.
          allow: ['@gateway/api'],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim'] },
            { sourceTag: 'type:portal', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim', 'type:app', 'type:sdk'] },
            // The published SDK stands alone: it depends on nothing of ours (its types come from the
            // generated OpenAPI schema), and only the black-box tests import it.
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts'] },
            // Within the domain, dependencies point down, tier by tier, never sideways:
            // - edge (provider-webhooks): routes one outside input to the flows it concerns;
            // - flows (refunds, payment-intents, bulk-payments, transfers, settlements) build on payments and the leaves,
            //   never on another flow;
            // - payments-core (payments: the payment rows, their confirmation and saved cards) is
            //   what the money-in flows call, in their own transaction, to touch a payment;
            // - leaves (ledger, customers, …) use only the core and the base. The core is webhooks:
            //   the events outbox every capability records its events through, and their delivery;
            //   the base is developers (the tenant every row belongs to), which uses no capability.
            { sourceTag: 'domain:base', onlyDependOnLibsWithTags: ['type:provider', 'type:platform', 'type:contracts'] },
            { sourceTag: 'domain:core', onlyDependOnLibsWithTags: ['domain:base', 'type:provider', 'type:platform', 'type:contracts'] },
            { sourceTag: 'domain:leaf', onlyDependOnLibsWithTags: ['domain:core', 'domain:base', 'type:provider', 'type:platform', 'type:contracts'] },
            {
              sourceTag: 'domain:payments-core',
              onlyDependOnLibsWithTags: ['domain:leaf', 'domain:core', 'domain:base', 'type:provider', 'type:platform', 'type:contracts'],
            },
            {
              sourceTag: 'domain:flow',
              onlyDependOnLibsWithTags: ['domain:payments-core', 'domain:leaf', 'domain:core', 'domain:base', 'type:provider', 'type:platform', 'type:contracts'],
            },
            {
              sourceTag: 'domain:edge',
              onlyDependOnLibsWithTags: ['domain:flow', 'domain:payments-core', 'domain:leaf', 'domain:core', 'domain:base', 'type:provider', 'type:platform', 'type:contracts'],
            },
            { sourceTag: 'type:provider', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            // The simulator stands alone; it shares only platform's dependency-free process helpers
            // (`@gateway/platform/process`, see the rule for apps/provider-sim below).
            { sourceTag: 'type:sim', onlyDependOnLibsWithTags: ['type:platform'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // A focused test silently skips the rest of its file: CI must never run with one.
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.browser-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name=/^(describe|it|test)$/][property.name=/^(only|skip)$/]",
          message: 'No focused or skipped tests: .only hides the rest of the file, .skip hides this test.',
        },
        {
          selector: "CallExpression[callee.name=/^(fdescribe|fit|xdescribe|xit|xtest)$/]",
          message: 'No focused or skipped tests.',
        },
      ],
    },
  },
  {
    // Platform's barrel would bring NestJS, TypeORM and the gateway's configuration into the simulator.
    files: ['apps/provider-sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^@gateway/(?!platform/process$)', message: 'The simulator stands alone: of the gateway it may import @gateway/platform/process only.' }],
        },
      ],
    },
  },
  {
    // The sandbox CLI is a client of the API that builds to one file needing only Node
    // (tools/build/bundle.ts): a barrel of the gateway's would bring NestJS, TypeORM and pg into it.
    files: ['tools/cli/integrator/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@gateway/(?!contracts/events$|domain/webhooks/wire$)',
              allowTypeImports: true,
              message: 'The sandbox CLI stands alone: of the gateway it may import values from @gateway/contracts/events and @gateway/domain/webhooks/wire only (types from anywhere).',
            },
          ],
        },
      ],
    },
  },
  {
    // The provider adapter's contract tests run over real HTTP against the provider simulator, so
    // these spec files (and only they) may import it; the adapter itself never depends on it.
    files: ['libs/provider/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@gateway/provider-sim'],
          depConstraints: [{ sourceTag: 'type:provider', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:sim'] }],
        },
      ],
    },
  },
  {
    // The black-box suite and the operator tools (npm start, benchmarks) run the provider simulator
    // beside the gateway; the gateway's own code never imports it.
    files: ['apps/api-e2e/**/*.ts', 'tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@gateway/api', '@gateway/provider-sim'],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim', 'type:app', 'type:sdk'] },
          ],
        },
      ],
    },
  },
];
