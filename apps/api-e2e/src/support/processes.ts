import { spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { applicationLogFile } from './test-artifacts';

export const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The file production runs for an entry point: an app's main as tsc compiled it (each build keeps
 * the workspace's layout under its output directory), or the operator or sandbox CLI's bundle
 * (`tools:build`, tools/build/bundle.ts) at its path under `dist/tools/cli`.
 */
function builtFile(entry: string): string | undefined {
  const app = /^apps\/([a-z-]+)\/src\/main\.ts$/.exec(entry)?.[1];
  if (app) return `dist/apps/${app}/${entry.replace(/\.ts$/, '.js')}`;
  const cli = /^tools\/cli\/(.+)\.ts$/.exec(entry)?.[1];
  if (cli) return `dist/tools/cli/${cli}.js`;
  return undefined;
}

/**
 * Node's arguments to run a TypeScript entry point of the workspace. An app's main or a CLI runs
 * built when E2E_APPS=built — as production runs it, and in about half the CPU its sources take
 * under the TypeScript loader (an API start costs ~2.7 s of CPU against ~4.5 s, a CLI command's
 * bundle ~0.5 s against ~1.1 s; the crash tests start hundreds of processes, the CLI tests some forty).
 * Nx sets it for the api-e2e targets, which build them first (apps/api-e2e/project.json); a run of
 * jest alone uses the sources, so it never meets a stale build.
 */
export function entryArgs(entry: string): string[] {
  const built = builtFile(entry);
  if (built && process.env.E2E_APPS === 'built') {
    const main = resolve(WORKSPACE_ROOT, built);
    if (!existsSync(main)) throw new Error(`E2E_APPS=built, but ${main} is missing: run \`npx nx run-many -t build --projects=api,scheduler,tools\` first.`);
    return [main];
  }
  return ['-r', '@swc-node/register', entry];
}

/** Runs a TypeScript entry point of the workspace in a real Node process, as users would. */
export function runEntry(entry: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...entryArgs(entry), ...args], {
      cwd: WORKSPACE_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // The apps' output is their log, kept for the secrets-at-rest scan when the run keeps artifacts
    // (test-artifacts.ts); the CLI's output is its answer to the operator, not a log.
    const logFile = entry.startsWith('apps/') ? applicationLogFile(`process-${child.pid}`) : undefined;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (logFile) appendFileSync(logFile, c);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (logFile) appendFileSync(logFile, c);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${entry} ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/**
 * A port the OS reports free on loopback right now. A random number could land on a port another
 * test (or an outgoing connection's ephemeral port) holds; asking the OS avoids that.
 */
export function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((done, fail) => {
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}
