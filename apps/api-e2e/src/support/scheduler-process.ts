import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { WORKSPACE_ROOT, freePort } from './processes';
import { applicationLogFile } from './test-artifacts';

/** The real scheduler app (`apps/scheduler/src/main.ts`) as a child process, for crash tests. */
export interface SchedulerProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, whatever was in flight is abandoned. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function startScheduler(env: Record<string, string>): Promise<SchedulerProcess> {
  // The port is free when asked for but could be taken before the child binds it: try again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(env, await freePort());
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function launch(env: Record<string, string>, port: number): Promise<SchedulerProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/scheduler/src/main.ts'], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', SCHEDULER_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // A run that keeps its artifacts keeps the scheduler's log too, for the secrets-at-rest scan (test-artifacts.ts).
  const logFile = applicationLogFile(`scheduler-${child.pid}`);
  const keep = (c: Buffer) => {
    output += c.toString();
    if (logFile) appendFileSync(logFile, c);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`scheduler exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`scheduler did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    output: () => output,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
