import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { DEFAULT_DATABASE_POOL_TIMEOUT_MS, DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS } from '../config/config.schema';
import { MIGRATIONS } from './migrations';

/** A process's connection pool. Unset fields take the configuration's defaults. */
export interface PoolSettings {
  /** Connections at most (DATABASE_POOL_SIZE; 10). */
  size?: number;
  /**
   * How long a query waits for a free connection of the pool, or for a new one to open
   * (DATABASE_POOL_TIMEOUT_MS, 10 s). Without it a query waits as long as it takes: under a load
   * the pool cannot serve the queue only grows, and a transaction that needs a second connection
   * while every other one waits for its locks would wait for ever. With it, the query fails (a 503
   * `service_unavailable` in the API, a retried job in the scheduler), and a transaction that gave
   * up rolls back and frees what it held.
   */
  timeoutMs?: number;
  /**
   * How long a transaction may sit idle, begun with no statement running, before PostgreSQL ends
   * its session (DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60 s; 0: the server's setting). No
   * transaction of the gateway waits on anything but its own statements (provider calls, webhook
   * deliveries and mail run outside them), so only a fault gets here: a bug that leaves one open,
   * or a process stalled mid-transaction. Without the bound such a transaction keeps its row locks
   * (a wallet's balance slot, a payment) and holds back the event feed until the process ends;
   * with it, the server rolls it back, the locks go, and the statement that comes late fails
   * instead of committing half of the work.
   */
  idleInTransactionTimeoutMs?: number;
  /**
   * How long one statement may run, waits for locks included, before PostgreSQL cancels it
   * (DATABASE_STATEMENT_TIMEOUT_MS, the API's pool only; unset or 0: the server's setting). A
   * request's statements are short; without the bound one that runs away (a plan gone wrong, a
   * wait behind a lock a stuck session holds) keeps its connection long after its client gave up,
   * and a few of them take the whole pool. With it, the statement fails with SQLSTATE 57014, its
   * transaction rolls back, and the request answers 503 `service_unavailable`, nothing done. The
   * scheduler's jobs and migrations (an online index build takes minutes) are not bounded by it.
   */
  statementTimeoutMs?: number;
}

/** A pool as the configuration sets it, of `size` connections where the process needs its own number. */
export function configuredPool(database: AppConfig['database'], size = database.poolSize): PoolSettings {
  return { size, timeoutMs: database.poolTimeoutMs, idleInTransactionTimeoutMs: database.idleInTransactionTimeoutMs };
}

/** Connection options shared by every process; schema changes only ever come from migrations. */
export function dataSourceOptions(url: string, pool: PoolSettings = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: pool.size ?? 10,
      connectionTimeoutMillis: pool.timeoutMs ?? DEFAULT_DATABASE_POOL_TIMEOUT_MS,
      // pg sends a number as milliseconds (a string such as '60s' would be read as 60); 0 is not sent.
      idle_in_transaction_session_timeout: pool.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      statement_timeout: pool.statementTimeoutMs ?? 0,
      application_name: 'gateway',
      // Transactions run READ COMMITTED whatever the server's default (see inTransaction).
      options: '-c default_transaction_isolation=read\\ committed',
    },
  };
}

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_KEY = 7_264_001;

/**
 * Applies pending migrations. Several processes (api, scheduler) may start together, so the run
 * is serialised with an advisory lock; each migration runs in its own transaction.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, { size: 2 }), logging: false });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}
