import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { EmbeddedPostgresError, type ServerBinaries, type SystemAccount } from './postgres-server';

/** Where the server's files are, and whom it runs as. */
export interface EmbeddedPostgresPlacement {
  binaries: ServerBinaries;
  dataDir: string;
  runAs?: SystemAccount;
}

/**
 * Where root keeps what the server's account must reach when the checkout is out of its reach
 * (a checkout in root's home or in a `mktemp -d` folder: a 0700 directory on the path).
 */
export const DEFAULT_RELOCATION_DIR = '/var/lib/gateway-embedded-postgres';
const SERVER_ACCOUNT = 'postgres';

/**
 * PostgreSQL refuses to run as root, so under root it runs as the system account `postgres`, which
 * must reach the binaries (in node_modules) and the data directory. When a directory on the way
 * is closed to it, those are placed under `relocationDir` instead — the binaries copied once per
 * version, the data in a directory named after the one asked for — rather than opening up the
 * owner's directories.
 */
export function placeEmbeddedPostgres(options: {
  dataDir: string;
  relocationDir: string;
  /** The binaries' directory (bin/, lib/, share/); by default where npm installed them. */
  runtimeDir?: string;
  log: (line: string) => void;
}): EmbeddedPostgresPlacement {
  const packaged = options.runtimeDir ?? packagedRuntimeDir();
  const dataDir = resolve(options.dataDir);
  if (process.getuid?.() !== 0) {
    mkdirSync(dirname(dataDir), { recursive: true });
    return { binaries: binariesIn(packaged), dataDir };
  }

  const runAs = serverAccount();
  let runtime = packaged;
  if (!canReach(runAs, binariesIn(packaged).postgres, 'x')) {
    runtime = copyRuntime(packaged, options.relocationDir, runAs, options.log);
  }
  let placedDataDir = dataDir;
  if (!canReach(runAs, nearestExisting(dirname(dataDir)), 'x')) {
    const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
    placedDataDir = join(options.relocationDir, `${basename(dataDir)}-${digest}`);
    options.log(`embedded PostgreSQL data in ${placedDataDir}: the system user ${runAs.name} cannot reach ${dataDir}`);
  }
  prepareDataDir(placedDataDir, runAs);
  return { binaries: binariesIn(runtime), dataDir: placedDataDir, runAs };
}

/**
 * The binaries come from the `embedded-postgres` package's per-platform dependency, which npm
 * installs for this machine only; the package's own server wrapper is not used, because it can
 * only run them from where npm put them.
 */
export function packagedRuntimeDir(): string {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const fromLibrary = createRequire(require.resolve('embedded-postgres'));
    return resolve(dirname(fromLibrary.resolve(platformPackage)), '..', 'native');
  } catch {
    throw new EmbeddedPostgresError(
      `no embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${platformPackage} is not installed): run npm install, or set DATABASE_URL`,
    );
  }
}

function binariesIn(runtimeDir: string): ServerBinaries {
  const exe = process.platform === 'win32' ? '.exe' : '';
  return { initdb: join(runtimeDir, 'bin', `initdb${exe}`), postgres: join(runtimeDir, 'bin', `postgres${exe}`) };
}

/** The `postgres` system account, created (as the embedded-postgres package would) when missing. */
function serverAccount(): SystemAccount {
  const existing = lookUpAccount(SERVER_ACCOUNT);
  if (existing) return existing;
  try {
    if (!groupExists(SERVER_ACCOUNT)) execFileSync('groupadd', ['--system', SERVER_ACCOUNT], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '--no-create-home', '--gid', SERVER_ACCOUNT, SERVER_ACCOUNT], { stdio: 'pipe' });
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    throw new EmbeddedPostgresError(
      `PostgreSQL refuses to run as root and the system user "${SERVER_ACCOUNT}" to run it as could not be created (${detail}): create it, run as another user, or set DATABASE_URL`,
    );
  }
  const created = lookUpAccount(SERVER_ACCOUNT);
  if (!created) throw new EmbeddedPostgresError(`the system user "${SERVER_ACCOUNT}" was created but cannot be found`);
  return created;
}

function lookUpAccount(name: string): SystemAccount | undefined {
  const id = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function groupExists(name: string): boolean {
  return spawnSync('getent', ['group', name], { stdio: 'ignore' }).status === 0;
}

/** Whether `account` may search (`x`) or write (`w`) `path`: every directory on the way must let it through. */
function canReach(account: SystemAccount, path: string, permission: 'x' | 'w'): boolean {
  const check = spawnSync('/bin/sh', ['-c', `test -${permission} "$1"`, 'sh', path], { uid: account.uid, gid: account.gid, stdio: 'ignore' });
  return check.status === 0;
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** A copy of the runtime (binaries, libraries, share; not the static libraries) the account can reach. */
function copyRuntime(packaged: string, relocationDir: string, runAs: SystemAccount, log: (line: string) => void): string {
  // "postgres (PostgreSQL) 15.18": one copy per server version, shared by every checkout.
  const version = execFileSync(binariesIn(packaged).postgres, ['--version'], { encoding: 'utf8' }).trim().split(' ').at(-1);
  const target = join(relocationDir, `runtime-${process.platform}-${process.arch}-${version}`);
  if (!existsSync(join(target, 'bin'))) {
    log(`copying the PostgreSQL binaries to ${target}: the system user ${runAs.name} cannot reach ${packaged}`);
    mkdirSync(relocationDir, { recursive: true, mode: 0o755 });
    // Copied aside and renamed into place, so a concurrent start never sees half a copy.
    const staging = mkdtempSync(join(relocationDir, '.runtime-'));
    cpSync(packaged, staging, { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.a') });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another start placed it first
    }
  }
  if (!canReach(runAs, binariesIn(target).postgres, 'x')) {
    throw new EmbeddedPostgresError(
      `the system user ${runAs.name} that runs PostgreSQL cannot reach ${packaged} nor ${relocationDir}: move the checkout out of a private directory, run as another user, or set DATABASE_URL`,
    );
  }
  return target;
}

/** The data directory, owned by the server's account; an existing cluster is left as it is. */
function prepareDataDir(dataDir: string, runAs: SystemAccount): void {
  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  // Directories on the way stay open to the account; the data directory itself is its alone.
  mkdirSync(dirname(dataDir), { recursive: true, mode: 0o755 });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (fresh) chownSync(dataDir, runAs.uid, runAs.gid);
  if (!canReach(runAs, dataDir, 'w')) {
    throw new EmbeddedPostgresError(
      `the system user ${runAs.name} that runs PostgreSQL cannot write ${dataDir}: set EMBEDDED_PG_DIR to a directory it can reach, or set DATABASE_URL`,
    );
  }
}
