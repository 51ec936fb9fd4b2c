import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { applicationLogFile } from './test-artifacts';

export const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point of the workspace in a real Node process, as users would. */
export function runEntry(entry: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', entry, ...args], {
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
