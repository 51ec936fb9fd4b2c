import { DataSource, type DataSourceOptions } from 'typeorm';
import { DEFAULT_DATABASE_POOL_TIMEOUT_MS } from '../config/config.schema';
import { MIGRATIONS } from './migrations';

/**
 * Connection options shared by every process; schema changes only ever come from migrations.
 *
 * `poolTimeoutMs` (DATABASE_POOL_TIMEOUT_MS, 10 s by default) bounds how long a query waits for a
 * free connection of the pool, or for a new one to open. Without it a query waits as long as it
 * takes: under a load the pool cannot serve the queue only grows, and a transaction that needs a
 * second connection while every other one waits for its locks would wait for ever. With it, the
 * query fails (a 503 `service_unavailable` in the API, a retried job in the scheduler), and a
 * transaction that gave up rolls back and frees what it held.
 */
export function dataSourceOptions(url: string, poolSize = 10, poolTimeoutMs = DEFAULT_DATABASE_POOL_TIMEOUT_MS): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    // Transactions run READ COMMITTED whatever the server's default (see inTransaction).
    extra: { max: poolSize, connectionTimeoutMillis: poolTimeoutMs, application_name: 'gateway', options: '-c default_transaction_isolation=read\\ committed' },
  };
}

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_KEY = 7_264_001;

/**
 * Applies pending migrations. Several processes (api, scheduler) may start together, so the run
 * is serialised with an advisory lock; each migration runs in its own transaction.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, 2), logging: false });
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
