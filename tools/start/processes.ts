import { type ChildProcess, spawn } from 'node:child_process';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
}

/**
 * Starts a child in its own process group (so its own children die with it), prefixing its output;
 * lines matching `internal` are for the supervisor (see waitForLine) and not shown.
 */
export function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, internal?: RegExp): ManagedProcess {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = `[${name}]`.padEnd(16);
  const forward = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim() && !internal?.test(line.trim())) stream.write(`${prefix}${line}\n`);
  };
  child.stdout?.on('data', forward(process.stdout));
  child.stderr?.on('data', forward(process.stderr));
  return { name, child };
}

export function isRunning(p: ManagedProcess): boolean {
  return p.child.exitCode === null && p.child.signalCode === null;
}

/** SIGTERM to each process group, SIGKILL to whatever is still alive after the grace period. */
export async function stopAll(processes: ManagedProcess[], graceMs = 10_000): Promise<void> {
  const running = processes.filter(isRunning);
  const exited = running.map((p) => new Promise<void>((resolve) => p.child.once('exit', () => resolve())));
  for (const p of running) signalGroup(p, 'SIGTERM');
  const timer = setTimeout(() => running.filter(isRunning).forEach((p) => signalGroup(p, 'SIGKILL')), graceMs);
  await Promise.all(exited);
  clearTimeout(timer);
  // Grandchildren (e.g. Vite's esbuild service) may outlive their parent: clear each group, and
  // return once they are gone, so whoever waits for this process finds nothing left behind.
  for (const p of processes) signalGroup(p, 'SIGKILL');
  const deadline = Date.now() + 5_000;
  while (processes.some(groupExists) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function groupExists(p: ManagedProcess): boolean {
  if (p.child.pid === undefined) return false;
  try {
    process.kill(-p.child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(p: ManagedProcess, signal: NodeJS.Signals): void {
  if (p.child.pid === undefined) return;
  try {
    process.kill(-p.child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

export async function waitForHttp(url: string, timeoutMs: number, isAlive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process serving ${url} exited`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Resolves with the match once the process prints a stdout line matching `pattern`. */
export function waitForLine(p: ManagedProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${p.name} did not become ready within ${timeoutMs / 1000} s`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        const match = line.trim().match(pattern);
        if (match) {
          clearTimeout(timer);
          p.child.stdout?.off('data', onData);
          resolve(match);
        }
      }
    };
    p.child.stdout?.on('data', onData);
    // 'close', not 'exit': the output is read to its end first, so a last line before exiting is seen.
    p.child.once('close', () => reject(new Error(`${p.name} exited before it was ready`)));
  });
}
