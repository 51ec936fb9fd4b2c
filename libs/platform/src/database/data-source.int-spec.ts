import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config';
import { waitFor } from '../testing/wait-for';
import { configuredPool, dataSourceOptions, type PoolSettings } from './data-source';
import { isStatementCanceledError } from './database-errors';
import { inTransaction } from './transaction';

const IDLE_IN_TRANSACTION_MS = 300;

/** The bound on idle transactions, on real PostgreSQL: what a pool's sessions are set to, and what the server does past it. */
describe('a pool of dataSourceOptions: transactions left idle', () => {
  const url = process.env.TEST_DATABASE_URL as string;
  const table = `idle_transaction_probe_${randomBytes(4).toString('hex')}`;
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(url, { size: 2, idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_MS })).initialize();
    await db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, note text)`);
    await db.query(`INSERT INTO ${table} VALUES (1, 'before')`);
  });
  afterAll(async () => {
    await db?.query(`DROP TABLE IF EXISTS ${table}`);
    await db?.destroy();
  });

  it('a pool made from the configuration bounds them at DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60 s unless set; 0 leaves the server its own', async () => {
    const settingOf = async (idleInTransactionTimeoutMs: string | undefined) => {
      const env = { ...process.env, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: idleInTransactionTimeoutMs };
      const configured = await new DataSource(dataSourceOptions(url, configuredPool(loadConfig(env).database, 1))).initialize();
      try {
        const [row] = (await configured.query(`SHOW idle_in_transaction_session_timeout`)) as Array<{ idle_in_transaction_session_timeout: string }>;
        return row.idle_in_transaction_session_timeout;
      } finally {
        await configured.destroy();
      }
    };
    expect(await settingOf(undefined)).toBe('1min');
    expect(await settingOf('90000')).toBe('90s');
    expect(await settingOf('0')).toBe('0');
    expect(() => loadConfig({ ...process.env, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '500' })).toThrow(/DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS/);
  });

  it('past the bound the server rolls the transaction back and frees its locks; the late statement fails, and the pool serves the next query', async () => {
    const stalled = inTransaction(db, async (m) => {
      await m.query(`UPDATE ${table} SET note = 'half-done' WHERE id = 1`);
      const [{ pid }] = (await m.query(`SELECT pg_backend_pid() AS pid`)) as Array<{ pid: number }>;
      // The process stalls here, its transaction open and the row locked, until the server ends the session.
      await waitFor(async () => ((await db.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])) as unknown[]).length === 0, {
        what: 'the server to end the idle transaction',
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      await m.query(`UPDATE ${table} SET note = 'late' WHERE id = 1`);
    });
    await expect(stalled).rejects.toThrow(/already released/);

    // The row is unlocked, and neither update was kept.
    await db.transaction(async (m) => {
      expect(await m.query(`SELECT note FROM ${table} WHERE id = 1 FOR UPDATE NOWAIT`)).toEqual([{ note: 'before' }]);
    });
    expect(await db.query(`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);
  });
});

/** The bound on one statement (the API's pool): what its sessions are set to, and what the server does past it. */
describe('a pool of dataSourceOptions: statements that run too long', () => {
  const url = process.env.TEST_DATABASE_URL as string;

  it('the API bounds each statement at DATABASE_STATEMENT_TIMEOUT_MS, 60 s unless set; 0 leaves the server its own; a pool not given it has none', async () => {
    const settingOf = async (pool: PoolSettings) => {
      const db = await new DataSource(dataSourceOptions(url, { ...pool, size: 1 })).initialize();
      try {
        const [row] = (await db.query(`SHOW statement_timeout`)) as Array<{ statement_timeout: string }>;
        return row.statement_timeout;
      } finally {
        await db.destroy();
      }
    };
    const configured = (value: string | undefined) => loadConfig({ ...process.env, DATABASE_STATEMENT_TIMEOUT_MS: value }).database;
    expect(await settingOf({ statementTimeoutMs: configured(undefined).statementTimeoutMs })).toBe('1min');
    expect(await settingOf({ statementTimeoutMs: configured('1500').statementTimeoutMs })).toBe('1500ms');
    expect(await settingOf({ statementTimeoutMs: configured('0').statementTimeoutMs })).toBe('0');
    // The scheduler's pool and the migrations' are made without it.
    expect(await settingOf(configuredPool(configured('1500')))).toBe('0');
    expect(() => configured('50')).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('past the bound the server cancels the statement (57014) and rolls its transaction back; the pool serves the next query', async () => {
    const db = await new DataSource(dataSourceOptions(url, { size: 1, statementTimeoutMs: 200 })).initialize();
    const table = `statement_timeout_probe_${randomBytes(4).toString('hex')}`;
    await db.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
    try {
      const started = performance.now();
      const failure = await inTransaction(db, async (m) => {
        await m.query(`INSERT INTO ${table} VALUES (1)`);
        await m.query(`SELECT pg_sleep(5)`);
      }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isStatementCanceledError(failure)).toBe(true);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(await db.query(`SELECT count(*)::int AS kept FROM ${table}`)).toEqual([{ kept: 0 }]);
    } finally {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
      await db.destroy();
    }
  });
});
