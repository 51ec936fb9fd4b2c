import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { DELIVERIES_DUE_CHANNEL } from './deliveries-due';

/** The flag on a transaction's query runner (`QueryRunner.data`): it made deliveries due. */
const WAKE_ON_COMMIT = 'webhooks.wakeDispatchersOnCommit';

/**
 * The NOTIFY that wakes the dispatchers, in a transaction of its own that does not wait for its
 * commit to reach the disk: a wake lost in a crash costs one poll of the dispatchers (≤ 500 ms),
 * never a delivery, which is a committed row.
 */
const WAKE_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, '')`;

const wakes = new WeakMap<DataSource, DispatcherWake>();

/**
 * Wakes the scheduler's dispatchers once a commit has made deliveries due (an event's fan-out, a
 * replay), so the first attempt starts within milliseconds of it.
 *
 * Why after the commit, not inside it: PostgreSQL serialises the commits of every transaction that
 * issued a NOTIFY, across the whole server, behind one lock held through the commit's flush to
 * disk. A NOTIFY inside each event's transaction made every payment's success wait for the
 * previous one's flush (docs/benchmarks.md, "Where a flow's CPU goes"). Here the state change
 * commits as any other, and the wake is one short statement sent after it, coalesced: while one is
 * on its way, any number of further commits add one more, sent after it.
 */
export class DispatcherWake {
  private readonly logger = new Logger('DispatcherWake');
  private sending = false;
  private again = false;

  private constructor(private readonly dataSource: DataSource) {
    const subscriber: EntitySubscriberInterface = {
      // A transaction's commit (TypeORM's, which inTransaction uses): wake if it made deliveries.
      // isTransactionActive is still true after a savepoint's release: only the outermost commit counts.
      afterTransactionCommit: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive && takeFlag(queryRunner)) this.now();
      },
      afterTransactionRollback: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive) takeFlag(queryRunner);
      },
    };
    dataSource.subscribers.push(subscriber);
  }

  /** The one of this DataSource (its commits are watched once, whichever service asks). */
  static for(dataSource: DataSource): DispatcherWake {
    let wake = wakes.get(dataSource);
    if (!wake) {
      wake = new DispatcherWake(dataSource);
      wakes.set(dataSource, wake);
    }
    return wake;
  }

  /**
   * `manager` has just made deliveries due: wake the dispatchers when its transaction commits
   * (never if it rolls back), or now when it has none (its statement committed already).
   */
  afterCommit(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) runner.data[WAKE_ON_COMMIT] = true;
    else this.now();
  }

  /** Wakes the dispatchers about commits already made. */
  now(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    void this.dataSource
      .query(WAKE_SQL, [DELIVERIES_DUE_CHANNEL])
      .catch((error: unknown) => this.logger.warn(`Could not wake the webhook dispatchers (their poll will find the deliveries): ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.sending = false;
        if (this.again) {
          this.again = false;
          this.now();
        }
      });
  }
}

function takeFlag(runner: QueryRunner): boolean {
  const flagged = runner.data?.[WAKE_ON_COMMIT] === true;
  if (flagged) delete runner.data[WAKE_ON_COMMIT];
  return flagged;
}
