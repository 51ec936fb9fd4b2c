import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as Vite from 'vite';

export const VITE_CONFIG = resolve(__dirname, '../../vite.config.ts');

/** Where `nx run portal:build` writes the portal (vite.config.ts's `build.outDir`). */
const NX_BUILD_DIR = resolve(__dirname, '../../../../dist/apps/portal');

/** Whether the specs serve Nx's build of the portal: set by the portal's Nx `test` target (project.json). */
export function servesNxBuild(): boolean {
  return process.env.PORTAL_TEST_BUILD === 'built';
}

/** Set by the portal's jest globalSetup (global-setup.ts): an empty directory the run's one build goes in. */
export const BUILD_DIR_VARIABLE = 'PORTAL_TEST_BUILD_DIR';

/**
 * Vite is ESM-only: loaded through Node's own require(esm), outside Jest's registry. Node ≥ 20.19
 * can `require()` ES modules; Jest's CommonJS sandbox cannot (without --experimental-vm-modules).
 */
export function loadVite(): typeof Vite {
  return process.getBuiltinModule('node:module').createRequire(__filename)('vite') as typeof Vite;
}

/**
 * The portal's production build (`vite build`), which every browser spec serves with `vite preview`.
 * Run through Nx (`nx test portal`, `npm test`), the test target depends on the portal's `build`
 * and sets PORTAL_TEST_BUILD=built: the specs serve that build, which Nx takes from its cache
 * when the portal has not changed (CI has just built it). Jest run alone builds it, once per run
 * (a build is tens of seconds of CPU), so it never serves a stale one. The first spec to ask
 * builds it in the run's directory; the others, after it or on other workers at the same time,
 * wait for it and share it (they only read it); the globalTeardown removes it. Returns the build's directory.
 */
export async function portalBuild(): Promise<string> {
  if (servesNxBuild()) {
    if (!existsSync(join(NX_BUILD_DIR, 'index.html'))) throw new Error(`PORTAL_TEST_BUILD=built, but ${NX_BUILD_DIR} holds no build: run \`npx nx run portal:build\` first.`);
    return NX_BUILD_DIR;
  }
  const runDir = process.env[BUILD_DIR_VARIABLE];
  if (!runDir) throw new Error(`${BUILD_DIR_VARIABLE} is not set: run the browser specs with jest -c apps/portal/jest.config.js.`);
  const outDir = join(runDir, 'dist');
  const done = join(runDir, 'done');
  try {
    mkdirSync(join(runDir, 'building')); // atomic: exactly one caller builds
  } catch {
    return builtElsewhere(done, outDir);
  }
  try {
    await loadVite().build({ configFile: VITE_CONFIG, logLevel: 'silent', build: { outDir } });
    writeFileSync(done, '');
  } catch (error) {
    writeFileSync(done, `the portal's build failed: ${String(error)}`);
    throw error;
  }
  return outDir;
}

/** Waits for the caller that builds; a build takes minutes at most, even on a loaded machine. */
async function builtElsewhere(done: string, outDir: string): Promise<string> {
  const deadline = Date.now() + 10 * 60_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`the portal's build in ${outDir} did not finish within 10 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const failure = readFileSync(done, 'utf8');
  if (failure) throw new Error(failure);
  return outDir;
}
