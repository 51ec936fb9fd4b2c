import type { DataSource, EntityManager } from 'typeorm';
import { failpoint } from '../process/failpoints';
import { isRetryableTransactionError } from './database-errors';

/** Attempts of one transaction (the first included) before a serialization failure or deadlock is given up. */
export const TRANSACTION_ATTEMPTS = 5;
/** Upper bound of the random pause before the n-th retry: BASE × 2^(n−1), so 10, 20, 40, 80 ms at most. */
const RETRY_BASE_DELAY_MS = 10;

/**
 * Runs `work` in one database transaction: a state change, its ledger entries and its events
 * commit together or not at all.
 *
 * A transaction PostgreSQL aborts as a serialization failure (40001) or a deadlock victim (40P01)
 * did nothing — it was rolled back whole — and is run again from the start, up to
 * TRANSACTION_ATTEMPTS times, after a short random pause (full jitter, so two transactions that
 * collided do not collide again in step). This is only safe because `work` touches nothing
 * outside the transaction: it reads and writes through `manager` only, and every provider call,
 * HTTP request or mail happens before the transaction opens or after it commits (the services
 * are written so: e.g. `PaymentChargesService` creates the payment in one transaction, calls the
 * provider outside any, and records the answer in another). `work` may therefore run more than
 * once; it must not keep state across runs in variables it does not reset. Any other error, and
 * the last attempt's, is thrown as is (the API answers a transient one with 503, not 500).
 *
 * `name`: the transaction's name for the crash tests' failpoints `transaction.before-commit` and
 * `transaction.after-commit` (process/failpoints.ts), which may be armed for one name.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>, name?: string): Promise<T> {
  return retryingTransient(async () => {
    // READ COMMITTED is every connection's default (dataSourceOptions): naming it here would cost
    // TypeORM a second round trip (SET TRANSACTION after START TRANSACTION) on every state change.
    const result = await dataSource.transaction(async (manager) => {
      const done = await work(manager);
      failpoint('transaction.before-commit', name);
      return done;
    });
    failpoint('transaction.after-commit', name);
    return result;
  });
}

/**
 * A state change made by ONE statement (its steps as data-modifying CTEs, run outside any
 * transaction): PostgreSQL commits a statement whole or not at all, so it needs no BEGIN and no
 * COMMIT — two round trips fewer than inTransaction. Retried like inTransaction on 40001 and
 * 40P01 (the statement did nothing). The same failpoints fire for `name`: `before-commit` just
 * before the statement is sent (nothing of it is written), `after-commit` once it has returned.
 */
export function inOneStatement<T>(run: () => Promise<T>, name?: string): Promise<T> {
  return retryingTransient(async () => {
    failpoint('transaction.before-commit', name);
    const result = await run();
    failpoint('transaction.after-commit', name);
    return result;
  });
}

async function retryingTransient<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= TRANSACTION_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      await pause(Math.random() * RETRY_BASE_DELAY_MS * 2 ** (n - 1));
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
