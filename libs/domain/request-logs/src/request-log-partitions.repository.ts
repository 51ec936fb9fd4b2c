import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, QueryRunner } from 'typeorm';
import { dayAfter, type UtcDay } from './utc-day';

/** The partition that takes rows no day partition covers (migration PartitionRequestLogs). */
export const DEFAULT_PARTITION = 'request_logs_default';

/** `request_logs_pYYYYMMDD` holds the rows of that UTC day; nothing else is named so. */
const DAY_PARTITION = /^request_logs_p(\d{4})(\d{2})(\d{2})$/;

export function dayPartitionName(day: UtcDay): string {
  return `request_logs_p${day.replace(/-/g, '')}`;
}

/** Any constant works; it only has to be the same in every scheduler. */
const UPKEEP_LOCK_KEY = 7_264_002;

/**
 * The DDL of request_logs' partitions: creating a day's partition (moving in any rows the default
 * partition took for that day), dropping a day's, and deleting from the default partition the rows
 * past retention. Every statement that needs a lock on request_logs runs with a lock timeout, so
 * it gives up instead of queueing the API's writes and the portal's reads behind a long query.
 */
@Injectable()
export class RequestLogPartitionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` on one connection holding the upkeep's advisory lock, so two schedulers never
   * change partitions at once; returns null without running it when another holds the lock.
   */
  async withUpkeepLock<T>(work: (session: PartitionSession) => Promise<T>): Promise<T | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [UPKEEP_LOCK_KEY])) as Array<{ locked: boolean }>;
      if (!locked) return null;
      try {
        return await work(new PartitionSession(runner));
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [UPKEEP_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }
}

/** The upkeep's statements, on the connection that holds its lock. */
export class PartitionSession {
  constructor(private readonly runner: QueryRunner) {}

  /** The UTC days that have a partition, oldest first. */
  async dayPartitions(): Promise<UtcDay[]> {
    const rows = (await this.runner.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'request_logs'::regclass`,
    )) as Array<{ name: string }>;
    return rows
      .map((r) => DAY_PARTITION.exec(r.name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}-${m[2]}-${m[3]}` as UtcDay)
      .sort();
  }

  /** The UTC days of the rows waiting in the default partition (none while the upkeep keeps up). */
  async daysInDefaultPartition(): Promise<UtcDay[]> {
    const rows = (await this.runner.query(
      `SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM ONLY ${DEFAULT_PARTITION} ORDER BY 1`,
    )) as Array<{ day: string }>;
    return rows.map((r) => r.day as UtcDay);
  }

  /**
   * Creates the partition of `day` and moves into it the rows the default partition holds for
   * that day, in one transaction: built as a plain table, filled, then attached. ATTACH takes
   * only SHARE UPDATE EXCLUSIVE on request_logs (writes and reads go on), where CREATE TABLE …
   * PARTITION OF would take ACCESS EXCLUSIVE. The default partition is locked first, so no row
   * for the day can land there between the move and the attach. Returns the rows moved.
   */
  async createDayPartition(day: UtcDay, lockTimeoutMs: number): Promise<number> {
    const name = dayPartitionName(day);
    const from = `${day}T00:00:00Z`;
    const to = `${dayAfter(day)}T00:00:00Z`;
    return this.inTransaction(lockTimeoutMs, async () => {
      await this.runner.query(`LOCK TABLE ${DEFAULT_PARTITION} IN ACCESS EXCLUSIVE MODE`);
      await this.runner.query(`CREATE TABLE ${name} (LIKE request_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      const [{ moved }] = (await this.runner.query(
        `WITH moved AS (DELETE FROM ONLY ${DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2 RETURNING *),
              inserted AS (INSERT INTO ${name} SELECT * FROM moved RETURNING 1)
         SELECT count(*)::int AS moved FROM inserted`,
        [from, to],
      )) as Array<{ moved: number }>;
      await this.runner.query(`ALTER TABLE request_logs ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
      return moved;
    });
  }

  /** Drops the partition of `day` with every row in it: a catalog change, however many rows. */
  async dropDayPartition(day: UtcDay, lockTimeoutMs: number): Promise<void> {
    await this.inTransaction(lockTimeoutMs, () => this.runner.query(`DROP TABLE ${dayPartitionName(day)}`));
  }

  /**
   * Deletes one bounded batch of default-partition rows older than `cutoff` (days the upkeep did
   * not cover in time, or clocks far behind) and says how many went.
   */
  async deleteDefaultRowsBefore(cutoff: Date, batchSize: number): Promise<number> {
    const [{ deleted }] = (await this.runner.query(
      `WITH doomed AS (
         SELECT ctid FROM ONLY ${DEFAULT_PARTITION} WHERE created_at < $1 LIMIT $2
       ), deleted AS (
         DELETE FROM ONLY ${DEFAULT_PARTITION} d USING doomed WHERE d.ctid = doomed.ctid RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM deleted`,
      [cutoff.toISOString(), batchSize],
    )) as Array<{ deleted: number }>;
    return deleted;
  }

  private async inTransaction<T>(lockTimeoutMs: number, work: () => Promise<T>): Promise<T> {
    await this.runner.startTransaction();
    try {
      await this.runner.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
      const result = await work();
      await this.runner.commitTransaction();
      return result;
    } catch (error) {
      await this.runner.rollbackTransaction();
      throw error;
    }
  }
}
