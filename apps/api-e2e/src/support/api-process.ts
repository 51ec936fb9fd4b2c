import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { WORKSPACE_ROOT, entryArgs, freePort } from './processes';
import { applicationLogFile } from './test-artifacts';

/** A real app entry point (`apps/<app>/src/main.ts`, or its build: entryArgs) as a child process, for crash tests. */
export interface AppProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves when the process has exited, however (a failpoint's SIGKILL included); never rejects. */
  exited: Promise<void>;
  /** SIGKILL: no shutdown hook runs, whatever was in flight is abandoned. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export interface AppEntry {
  /** `api` or `scheduler`: the entry is `apps/<app>/src/main.ts`, its log `<app>-<pid>.log`. */
  app: string;
  /** The variable its port is given in (API_PORT, SCHEDULER_PORT). */
  portVariable: string;
}

/** The API app (`apps/api/src/main.ts`) as a child process; ready once `/health` answers. */
export function startApi(env: Record<string, string>): Promise<AppProcess> {
  return startAppProcess({ app: 'api', portVariable: 'API_PORT' }, env);
}

export async function startAppProcess(entry: AppEntry, env: Record<string, string>): Promise<AppProcess> {
  // The port is free when asked for but could be taken before the child binds it: try again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(entry, env, await freePort());
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function launch(entry: AppEntry, env: Record<string, string>, port: number): Promise<AppProcess> {
  const child = spawn(process.execPath, entryArgs(`apps/${entry.app}/src/main.ts`), {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', [entry.portVariable]: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // A run that keeps its artifacts keeps the process's log too, for the secrets-at-rest scan (test-artifacts.ts).
  const logFile = applicationLogFile(`${entry.app}-${child.pid}`);
  const keep = (c: Buffer) => {
    output += c.toString();
    if (logFile) appendFileSync(logFile, c);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Killed at a failpoint while starting (a scheduler's worker runs before /health answers): returned dead, for the crash test to see.
    if (child.signalCode === 'SIGKILL') break;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${entry.app} exited: ${output}`);
    const ok = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry.app} did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    baseUrl,
    output: () => output,
    exited,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
