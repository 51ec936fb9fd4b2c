import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const FIXTURE = join(__dirname, 'on-shutdown.fixture.ts');
const WORKSPACE_ROOT = join(__dirname, '../../../..');

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/** The fixture process, once it has installed its shutdown; `stopped` resolves when it exits. */
async function startFixture(env: Record<string, string>): Promise<{ child: ChildProcess; stopped: Promise<Stopped>; lines: string[] }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', FIXTURE], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let ready: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(line);
      if (line === 'ready') ready();
    }
  });
  const stopped = new Promise<Stopped>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, lines })));
  await Promise.race([isReady, stopped.then((s) => Promise.reject(new Error(`fixture exited early: ${s.lines.join('\n')}`)))]);
  return { child, stopped, lines };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('onShutdown', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s closes every step in order, once, and exits 0', async (signal) => {
    const { child, stopped, lines: seen } = await startFixture({ STEPS: 'http:ok,database:ok' });
    child.kill(signal);
    // The same signal again, once the steps run (two at once would reach the process as one):
    // it neither restarts the steps nor cuts them short.
    await until(() => seen.includes('closing http'));
    child.kill(signal);
    const { code, signal: killedBy, lines } = await stopped;
    expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
    const repeated = `log: ${signal} received while shutting down: still closing`;
    expect(lines).toContain(repeated);
    expect(lines.filter((l) => l !== 'ready' && l !== repeated)).toEqual([`log: ${signal} received, shutting down`, 'closing http', 'closing database', 'log: stopped']);
  }, 30_000);

  it('runs the steps after a failing one, then exits 1', async () => {
    const { child, stopped } = await startFixture({ STEPS: 'http:fail,database:ok' });
    child.kill('SIGTERM');
    const { code, lines } = await stopped;
    expect(code).toBe(1);
    expect(lines).toEqual(expect.arrayContaining(['closing http', 'error: http failed to close: http refused', 'closing database']));
    expect(lines).not.toContain('log: stopped');
  }, 30_000);

  it('exits 1 at the deadline when a step never finishes', async () => {
    const { child, stopped } = await startFixture({ STEPS: 'http:hang,database:ok', DEADLINE_MS: '500' });
    const signalled = Date.now();
    child.kill('SIGTERM');
    const { code, lines } = await stopped;
    expect(code).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(lines).toContain('error: shutdown did not finish within 0.5 s (still closing http); exiting');
    expect(lines).not.toContain('closing database');
  }, 30_000);

  it('stops by itself when its supervisor is gone', async () => {
    const supervisor = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const { stopped } = await startFixture({ STEPS: 'http:ok', SUPERVISOR_PID: String(supervisor.pid) });
    supervisor.kill('SIGKILL');
    const { code, lines } = await stopped;
    expect(code).toBe(0);
    expect(lines).toEqual(expect.arrayContaining(['log: supervisor gone, shutting down', 'closing http', 'log: stopped']));
  }, 30_000);
});
