// A Jest runtime that loads the gateway's own code and its packages once per worker, with Node's
// require, instead of once per test file through Jest's module registry.
//
// Why: an e2e or browser test file boots the real API in its own thread, and that is about 2,700
// modules (TypeORM, Nest, rxjs, class-validator, the gateway's libraries). Jest gives every test
// file a new registry, so every file loaded and evaluated them all again: 1.6 s of CPU a file, the
// largest single cost of the e2e tests (docs/benchmarks.md, "The test suite").
//
// What stays in Jest's registry, new for each file: the test files and their support modules (they
// use Jest's globals), core modules, and anything a test mocks. What is shared lives in the
// worker's own realm: a test's `instanceof Error` on an error thrown there is false (compare names
// or use Jest's matchers, which know both realms), and module-level state lasts as long as the
// worker. The classes a test reaches the app with (`app.get(DataSource)`) are the app's own, since
// the test imports the same shared module.
const { sep } = require('node:path');
const { createRequire } = require('node:module');
const Runtime = require('jest-runtime').default;

const root = require('node:path').resolve(__dirname, '../..') + sep;
// TypeScript of the libraries and apps, compiled by SWC with the workspace's path aliases, as the
// repository's scripts run (`node -r @swc-node/register`).
process.env.SWC_NODE_PROJECT ??= `${root}tsconfig.json`;
require('@swc-node/register');
const nativeRequire = createRequire(__filename);

/** Test code and what only tests load: kept in each file's registry. */
const TEST_CODE = /(\.[a-z-]*spec\.tsx?$)|([/\\](test|testing)[/\\])/;
/**
 * The packages, and the gateway's server code. Not the SDK (ES modules: `./x.js` names a
 * TypeScript file, which Jest's mapper resolves), nor the portal (React, with its own compiler settings).
 */
const SHARED = /^(node_modules|libs[/\\](?!sdk[/\\])|apps[/\\](api|scheduler|provider-sim)[/\\]src[/\\])/;

function shared(modulePath) {
  if (!modulePath.startsWith(root)) return false;
  const relative = modulePath.slice(root.length);
  return SHARED.test(relative) && (relative.startsWith('node_modules') || !TEST_CODE.test(relative));
}

class SharedModulesRuntime extends Runtime {
  constructor(config, environment, ...rest) {
    super(config, environment, ...rest);
    // Decorator metadata (Nest's routes, TypeORM's columns) is kept by reflect-metadata on the
    // realm's Reflect: the test reads the app's through the same object.
    nativeRequire('reflect-metadata');
    environment.global.Reflect = Reflect;
  }

  requireModuleOrMock(from, moduleName) {
    const modulePath = this.sharedPath(from, moduleName);
    return modulePath ? nativeRequire(modulePath) : super.requireModuleOrMock(from, moduleName);
  }

  /** The file a shared module is, or undefined when Jest's registry loads it. */
  sharedPath(from, moduleName) {
    if (moduleName === '@jest/globals' || this._resolver.isCoreModule(moduleName) || this._shouldMockCjs(from, moduleName, this._explicitShouldMock)) return undefined;
    try {
      const modulePath = this._resolveCjsModule(from, moduleName);
      return shared(modulePath) ? modulePath : undefined;
    } catch {
      return undefined; // Jest's own resolution reports it, with its hints
    }
  }
}

module.exports = SharedModulesRuntime;
