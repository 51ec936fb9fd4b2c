import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { packagedRuntimeDir } from './embedded-postgres-placement';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './embedded-postgres';

/**
 * A checkout inside a directory only its owner may enter (root's home, a `mktemp -d` folder):
 * under root, PostgreSQL runs as the system user `postgres`, who cannot reach the checkout's
 * node_modules nor its .data. The server must start anyway, or refuse in one line.
 */
// initdb and a server start: seconds on a quiet machine, many more while other test projects share the cores.
jest.setTimeout(90_000);

describe('embedded PostgreSQL from a checkout in a private (0700) directory', () => {
  const isRoot = process.getuid?.() === 0;
  let privateDir: string;
  let openDir: string;
  let checkout: { runtimeDir: string; dataDir: string };

  beforeEach(() => {
    privateDir = mkdtempSync(join(tmpdir(), 'gateway-private-')); // mode 0700
    openDir = mkdtempSync(join(tmpdir(), 'gateway-open-'));
    chmodSync(openDir, 0o755);
    // What `npm install` puts in that checkout: the PostgreSQL runtime inside node_modules.
    const runtimeDir = join(privateDir, 'gw', 'node_modules', 'runtime');
    cpSync(packagedRuntimeDir(), runtimeDir, { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.a') });
    checkout = { runtimeDir, dataDir: join(privateDir, 'gw', '.data', 'postgres') };
  });

  afterEach(() => {
    rmSync(privateDir, { recursive: true, force: true });
    rmSync(openDir, { recursive: true, force: true });
  });

  it('starts, answers queries and stops; under root its files are placed where the postgres user can reach them', async () => {
    const lines: string[] = [];
    const db = await startEmbeddedPostgres({
      dir: checkout.dataDir,
      port: await freePort(),
      runtimeDir: checkout.runtimeDir,
      relocationDir: join(openDir, 'embedded-postgres'),
      log: (line) => lines.push(line),
    });
    try {
      const client = new Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ encoding: string }>(`SELECT current_setting('server_encoding') AS encoding`);
      await client.end();
      expect(rows).toEqual([{ encoding: 'UTF8' }]);
      if (isRoot) {
        expect(db.dataDir.startsWith(join(openDir, 'embedded-postgres'))).toBe(true);
        expect(lines.some((l) => l.includes('cannot reach') && l.includes(checkout.dataDir))).toBe(true);
      } else {
        expect(db.dataDir).toBe(checkout.dataDir);
      }
    } finally {
      await db.stop();
    }
    expect(existsSync(join(db.dataDir, 'postmaster.pid'))).toBe(false);
  });

  it('under root, refuses in one line saying what to do when nowhere it could place them is reachable either', async () => {
    const attempt = startEmbeddedPostgres({
      dir: checkout.dataDir,
      port: await freePort(),
      runtimeDir: checkout.runtimeDir,
      // Inside the private directory too: nowhere the postgres user could reach.
      relocationDir: join(privateDir, 'elsewhere'),
    });
    if (!isRoot) {
      // Not root: the server runs as the owner of the private directory, so it simply starts.
      await (await attempt).stop();
      return;
    }
    const error = await attempt.then(
      async (db) => {
        await db.stop();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).toMatch(/cannot reach .*DATABASE_URL/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
