import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { type EntityManager, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { runOnClient, runOnPool } from './statement-query';

/**
 * A statement the hot paths (initialize, verify, GET payment) run by name. PostgreSQL parses it
 * once per connection and, after a few runs, reuses its plan; `manager.query` sends the text to be
 * parsed and planned every time, and wraps each call in TypeORM's runner, logger and broadcaster.
 * Names are unique in the process: the same name with another text is a programming error.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const texts = new Map<string, string>();

export function preparedStatement(name: string, text: string): PreparedStatement {
  const known = texts.get(name);
  if (known !== undefined && known !== text) throw new Error(`prepared statement ${name} is defined twice with different SQL`);
  texts.set(name, text);
  return { name, text };
}

/**
 * Runs `statement` on the manager's connection: the caller's transaction when the manager has one,
 * else any pooled connection. Rows come back parsed exactly as `manager.query` parses them (the
 * same pg pool and type parsers, the row description read once per connection: statement-query.ts);
 * errors are pg's own (`code` is the SQLSTATE, as isRetryableTransactionError expects).
 */
export async function runStatement<R extends QueryResultRow>(manager: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<{ rows: R[]; rowCount: number }> {
  const runner = manager.queryRunner;
  if (runner?.isReleased) throw new QueryRunnerAlreadyReleasedError();
  const call = { name: statement.name, text: statement.text, values };
  try {
    const result = runner
      ? await runOnClient<R>((await runner.connect()) as PoolClient, call)
      : await runOnPool<R>((manager.connection.driver as unknown as { master: Pool }).master, call);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  } catch (error) {
    // As pg does for its own promises: a stack that leads back to the caller, not to the socket's read.
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  }
}

/**
 * `sql` with its parameters $1…$n renumbered $offset+1…$offset+n: one statement made of parts
 * that their owners write each with its own numbering (a payment's success: the status move, the
 * ledger credit, the event, the analytics totals), their values concatenated in the same order.
 */
export function shiftParameters(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/** How many parameters a statement part uses: the highest $n in it. */
export function parameterCount(...sql: string[]): number {
  return Math.max(0, ...sql.flatMap((text) => [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))));
}
