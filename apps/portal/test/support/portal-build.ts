import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
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
    await buildForProduction(outDir);
    writeFileSync(done, '');
  } catch (error) {
    writeFileSync(done, `the portal's build failed: ${String(error)}`);
    throw error;
  }
  return outDir;
}

/**
 * `vite build` in a process of its own with NODE_ENV=production, as `nx run portal:build` runs it.
 * Not Vite's `build()` in this worker: Vite takes the process's NODE_ENV when one is set, and
 * Jest's (`test`) would make a development build: React's development runtime, not what users are
 * served, and about 1.4 times the browser's CPU (the webhooks spec: 36 s against 25 s).
 */
async function buildForProduction(outDir: string): Promise<void> {
  const vite = join(dirname(createRequire(__filename).resolve('vite/package.json')), 'bin/vite.js');
  // A failed build rejects with its output.
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', VITE_CONFIG, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  });
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
