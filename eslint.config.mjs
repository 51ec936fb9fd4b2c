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
          // The black-box suite boots the API app in-process (to inject a clock); nothing else may import an app.
          allow: ['@gateway/api'],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim'] },
            { sourceTag: 'type:portal', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts', 'type:sim', 'type:app'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:provider', 'type:platform', 'type:contracts'] },
            { sourceTag: 'type:provider', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:sim', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
];
