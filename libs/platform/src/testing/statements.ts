import type { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/** The statements (text and values) `run` sent through TypeORM whose text `matching` accepts, in the order sent. */
export async function statementsRun(run: () => Promise<unknown>, matching: (sql: string) => boolean): Promise<Array<[string, unknown[]]>> {
  const query = jest.spyOn(PostgresQueryRunner.prototype, 'query');
  try {
    await run();
    return query.mock.calls.filter(([sql]) => matching(sql)).map(([sql, params]): [string, unknown[]] => [sql, params ?? []]);
  } finally {
    query.mockRestore();
  }
}

/**
 * The plan PostgreSQL uses for `sql` once it plans it without its values, as it does for a prepared
 * statement after a few runs: what a partial index or a `status IN (…)` must hold up under. The
 * values are written into the EXECUTE as literals (dates as ISO text, arrays as `{…}`); `settings`
 * are set for the one EXPLAIN (`enable_seqscan: 'off'` shows which index a small table would use).
 */
export async function genericPlan(dataSource: DataSource, sql: string, params: readonly unknown[], settings: Record<string, string> = {}): Promise<string> {
  const runner = dataSource.createQueryRunner();
  const text = (value: unknown): string => (value instanceof Date ? value.toISOString() : Array.isArray(value) ? `{${value.map(text).join(',')}}` : String(value));
  const literal = (value: unknown) => `'${text(value).replace(/'/g, "''")}'`;
  try {
    await runner.startTransaction();
    // SET LOCAL: the pooled connection goes back as it came.
    for (const [name, value] of Object.entries({ plan_cache_mode: 'force_generic_plan', ...settings })) await runner.query(`SELECT set_config($1, $2, true)`, [name, value]);
    await runner.query(`PREPARE generic_plan_probe AS ${sql}`);
    const rows = (await runner.query(`EXPLAIN EXECUTE generic_plan_probe(${params.map(literal).join(', ')})`)) as Array<{ 'QUERY PLAN': string }>;
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    // A prepared statement outlives the transaction; the app's own prepared statements stay.
    await runner.query(`DEALLOCATE generic_plan_probe`).catch(() => undefined);
    await runner.release();
  }
}
