import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, rmSync, writeFileSync } from 'node:fs';

/** Why the embedded server cannot run, in one line that also says what to do about it. */
export class EmbeddedPostgresError extends Error {}

export interface ServerBinaries {
  initdb: string;
  postgres: string;
}

/** The account the server's processes run as when it is not the current one (PostgreSQL refuses root). */
export interface SystemAccount {
  name: string;
  uid: number;
  gid: number;
}

export interface RunningServer {
  stop(): Promise<void>;
}

// Messages in English whatever the machine's locale: start-up is detected by one of them.
const ENGLISH_MESSAGES = { LC_MESSAGES: 'C' };
const READY_MESSAGE = 'database system is ready to accept connections';
const STOP_GRACE_MS = 20_000;

/** Creates a new cluster in `dataDir` (absent or empty) whose superuser `user` signs in with `password`. */
export async function initialiseCluster(options: {
  binaries: ServerBinaries;
  dataDir: string;
  user: string;
  password: string;
  runAs?: SystemAccount;
}): Promise<void> {
  // Beside the data directory: a place the server's account can reach, and initdb wants the directory itself empty.
  const passwordFile = `${options.dataDir}.initdb-password`;
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (options.runAs) chownSync(passwordFile, options.runAs.uid, options.runAs.gid);
  try {
    const args = [
      `--pgdata=${options.dataDir}`,
      `--username=${options.user}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      // UTF-8 whatever the machine's locale (a bare C locale would otherwise give SQL_ASCII).
      '--encoding=UTF8',
      '--locale=C',
      '--lc-messages=C',
    ];
    const child = spawnAs(options.binaries.initdb, args, options.runAs);
    const output = collectOutput(child);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', (error) => reject(cannotRun(options.binaries.initdb, error)));
      child.once('close', (exitCode) => resolve(exitCode));
    });
    if (code !== 0) {
      throw new EmbeddedPostgresError(`initdb failed in ${options.dataDir}: ${reasonFrom(output())}`);
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Runs the server on 127.0.0.1:`port` until `stop()`; resolves once it accepts connections. */
export async function startServer(options: {
  binaries: ServerBinaries;
  dataDir: string;
  port: number;
  runAs?: SystemAccount;
}): Promise<RunningServer> {
  const child = spawnAs(
    options.binaries.postgres,
    ['-D', options.dataDir, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'lc_messages=C'],
    options.runAs,
  );
  const output = collectOutput(child);
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(cannotRun(options.binaries.postgres, error)));
    child.once('exit', () => reject(new EmbeddedPostgresError(startFailure(output(), options.port))));
    // Registered after collectOutput's listener, so the output already holds this chunk.
    const watchForReady = () => {
      if (!output().includes(READY_MESSAGE)) return;
      child.stderr?.off('data', watchForReady);
      resolve();
    };
    child.stderr?.on('data', watchForReady);
  });
  return { stop: () => stopServer(child) };
}

/** "Fast" shutdown (rolls back open transactions, disconnects clients); "immediate" if that hangs. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

function spawnAs(command: string, args: string[], runAs: SystemAccount | undefined): ChildProcess {
  return spawn(command, args, {
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    env: { ...process.env, ...ENGLISH_MESSAGES },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Keeps reading the child's output for as long as it runs (a full pipe would block the server)
 * and remembers the last few kilobytes, which say why it stopped if it does.
 */
function collectOutput(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

function cannotRun(binary: string, error: NodeJS.ErrnoException): EmbeddedPostgresError {
  return new EmbeddedPostgresError(`cannot run ${binary} (${error.code ?? error.message})`);
}

function startFailure(output: string, port: number): string {
  if (/could not bind .*Address already in use|could not create lock file ".*\.s\.PGSQL\.\d+\.lock"/.test(output)) {
    return `port ${port} is already in use; set EMBEDDED_PG_PORT to a free port`;
  }
  return `PostgreSQL stopped during start-up: ${reasonFrom(output)}`;
}

/** The line that explains a failure: PostgreSQL's last FATAL/PANIC/ERROR, else its last line. */
function reasonFrom(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const explaining = [...lines].reverse().find((l) => /\b(FATAL|PANIC|ERROR|error):/.test(l));
  return (explaining ?? lines.at(-1) ?? 'no output').replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
}
