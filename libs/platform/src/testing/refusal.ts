import type { QueryRunner } from 'typeorm';

/** Why PostgreSQL refused a statement: its SQLSTATE and the constraint it named. */
export interface Refusal {
  code: string;
  constraint: string;
}

/**
 * Runs one statement inside a savepoint of the runner's open transaction and answers PostgreSQL's
 * refusal, or null when the statement was accepted; a refused statement is rolled back to the
 * savepoint, so the test's transaction goes on with its next try.
 */
export async function refusalOf(runner: QueryRunner, sql: string, parameters: readonly unknown[]): Promise<Refusal | null> {
  await runner.query('SAVEPOINT refusal_of');
  try {
    await runner.query(sql, [...parameters]);
    await runner.query('RELEASE SAVEPOINT refusal_of');
    return null;
  } catch (error) {
    await runner.query('ROLLBACK TO SAVEPOINT refusal_of');
    const { code, constraint } = error as Refusal;
    return { code, constraint };
  }
}
