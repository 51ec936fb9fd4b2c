// A Jest runtime that loads the gateway's own code and its packages once per worker, with Node's
// require, instead of once per test file through Jest's module registry. Every project's tests run
// on it (jest.preset.js).
//
// Why: an e2e or browser test file boots the real API in its own thread, and that is about 2,700
// modules (TypeORM, Nest, rxjs, class-validator, the gateway's libraries). Jest gives every test
// file a new registry, so every file loaded and evaluated them all again: 1.6 s of CPU a file, the
// largest single cost of the e2e tests; for the libraries' tests, it was two thirds of their CPU
// (docs/benchmarks.md, "The test suite").
//
// What stays in Jest's registry, new for each file: the test files and their support modules (they
// use Jest's globals), core modules, anything a test mocks, and the packages Jest compiles itself
// (a project's transformIgnorePatterns spare them: Node could not load them as they are). What is
// shared lives in the worker's own realm, and module-level state lasts as long as the worker. So
// that a test's `expect.any(Date)`, `toThrow(RangeError)` or `toBeInstanceOf(Map)` holds for values
// made there, the test's globals name that realm's Date, Map, Set and error classes (SHARED_GLOBALS).
// A literal (`{}`, `[]`) is still the test's realm's, and so is an error the engine throws in test
// code. The classes a test reaches the app with (`app.get(DataSource)`) are the app's own, since the
// test imports the same shared module.
//
// A test file whose leading comment holds `@isolated-modules` loads everything through Jest's
// registry, as plain Jest does: one that mocks a module a shared module requires (shared code would
// get the real one), or one that tests what happens once per process. Mocking a module without it
// fails, rather than leaving the shared code with the real module.
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve, sep } = require('node:path');
const { createRequire } = require('node:module');
const Runtime = require('jest-runtime').default;

const root = resolve(__dirname, '../..') + sep;
// TypeScript of the libraries and apps, compiled by SWC with the workspace's path aliases, as the
// repository's scripts run (`node -r @swc-node/register`).
process.env.SWC_NODE_PROJECT ??= `${root}tsconfig.json`;
const nativeRequire = createRequire(__filename);
withSourceMapsKept(() => nativeRequire('@swc-node/register'));
const { SourcemapMap: swcSourceMaps } = createRequire(require.resolve('@swc-node/register'))('@swc-node/sourcemap-support');
// Jest's own reader of a test file's leading comment (the one that finds `@jest-environment`).
const docblock = createRequire(require.resolve('jest-runner'))('jest-docblock');

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

/** The worker realm's constructors a test's globals name instead of its own. */
const SHARED_GLOBALS = ['Error', 'RangeError', 'TypeError', 'SyntaxError', 'ReferenceError', 'URIError', 'EvalError', 'AggregateError', 'Date', 'Map', 'Set', 'WeakMap', 'WeakSet'];

class SharedModulesRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    this.isolated = 'isolated-modules' in docblock.parse(docblock.extract(readFileSync(testPath, 'utf8')));
    if (this.isolated) return;
    this.notCompiledByJest = config.transformIgnorePatterns.map((pattern) => new RegExp(pattern));
    // Decorator metadata (Nest's routes, TypeORM's columns) is kept by reflect-metadata on the
    // realm's Reflect: the test reads the app's through the same object.
    nativeRequire('reflect-metadata');
    environment.global.Reflect = Reflect;
    this.ownError = environment.global.Error;
    for (const name of SHARED_GLOBALS) environment.global[name] = globalThis[name];
  }

  /** Jest's source maps of the files it compiled, and those of the shared files, for the stack traces of failures. */
  getSourceMaps() {
    const jestMaps = super.getSourceMaps();
    return { get: (file) => jestMaps.get(file) ?? sharedSourceMapFile(file) };
  }

  teardown() {
    // Jest turns the stack traces of the file's `Error` off once it has ended: that must be the
    // file's own, not the worker's, which shared code and the next files go on using.
    if (this.ownError && this._environment.global) this._environment.global.Error = this.ownError;
    super.teardown();
  }

  requireModuleOrMock(from, moduleName) {
    const modulePath = this.sharedPath(from, moduleName);
    return modulePath ? withSourceMapsKept(() => nativeRequire(modulePath)) : super.requireModuleOrMock(from, moduleName);
  }

  /** The file a shared module is, or undefined when Jest's registry loads it. */
  sharedPath(from, moduleName) {
    if (this.isolated || moduleName === '@jest/globals' || this._resolver.isCoreModule(moduleName) || this._shouldMockCjs(from, moduleName, this._explicitShouldMock)) return undefined;
    if (this._explicitShouldMock.size > 0) throw new Error(`${this._testPath} mocks a module: mark it @isolated-modules (tools/test/shared-modules-runtime.js), or shared code would see the real module.`);
    try {
      const modulePath = this._resolveCjsModule(from, moduleName);
      return shared(modulePath) && this.loadableByNode(modulePath) ? modulePath : undefined;
    } catch {
      return undefined; // Jest's own resolution reports it, with its hints
    }
  }

  /** The gateway's sources are (@swc-node/register); a package only if Jest leaves it as it is (transformIgnorePatterns). */
  loadableByNode(modulePath) {
    return !modulePath.startsWith(`${root}node_modules${sep}`) || this.notCompiledByJest.some((pattern) => pattern.test(modulePath));
  }
}

/**
 * Runs `load` with @swc-node/register keeping the source map of each file it compiles in memory too
 * (it reads the mode at each compilation), where failures' stack traces find it (getSourceMaps):
 * inline only, a frame in shared code named a line of the compiled code. Only while loading, so the
 * processes tests start do not inherit the setting.
 */
function withSourceMapsKept(load) {
  const mode = process.env.SWC_NODE_SOURCE_MAP_MODE;
  process.env.SWC_NODE_SOURCE_MAP_MODE = 'both';
  try {
    return load();
  } finally {
    if (mode === undefined) delete process.env.SWC_NODE_SOURCE_MAP_MODE;
    else process.env.SWC_NODE_SOURCE_MAP_MODE = mode;
  }
}

let sourceMapDir;
const sourceMapFiles = new Map();

/** A file holding the source map of a shared module (Jest reads stack traces' maps from files), or undefined. */
function sharedSourceMapFile(file) {
  const map = swcSourceMaps.get(file);
  if (map === undefined) return undefined;
  if (!sourceMapFiles.has(file)) {
    if (!sourceMapDir) {
      sourceMapDir = mkdtempSync(join(tmpdir(), 'gateway-test-source-maps-'));
      process.on('exit', () => rmSync(sourceMapDir, { recursive: true, force: true }));
    }
    const path = join(sourceMapDir, `${sourceMapFiles.size}.map`);
    writeFileSync(path, typeof map === 'string' ? map : JSON.stringify(map));
    sourceMapFiles.set(file, path);
  }
  return sourceMapFiles.get(file);
}

module.exports = SharedModulesRuntime;
