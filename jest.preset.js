// Shared Jest preset: SWC transpiles TypeScript (with decorator metadata for NestJS),
// and the tsconfig path aliases resolve to library sources. Type-checking is the
// separate `typecheck` target, so tests stay fast.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace(/[/.]/g, '\\$&')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  // Packages and the gateway's server code are loaded once per worker, not once per test file
  // (see the runtime's comment: realms, module state, and `@isolated-modules`).
  runtime: path.join(__dirname, 'tools/test/shared-modules-runtime.js'),
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  clearMocks: true,
  // Not jest's 5 s: a library's tests build a Nest context on a real PostgreSQL, hash passwords with
  // argon2 at 64 MiB, or start child processes, and `npm test` runs three projects at once on two
  // cores beside a browser. A hook or test that hangs still fails, 30 s in.
  testTimeout: 30_000,
  // The default output, and the failed tests named again at the end of `npm test` (tools/test/run-tests.ts).
  reporters: ['default', path.join(__dirname, 'tools/test/failed-tests-reporter.js')],
};
