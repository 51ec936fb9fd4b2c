import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, QueryRunner } from 'typeorm';
import { dayAfter, mondayOf, type UtcDay } from './utc-day';

/** The partition that takes rows no other partition covers (migration PartitionRequestLogs). */
export const DEFAULT_PARTITION = 'request_logs_default';

/**
 * A partition of request_logs: the rows created from midnight UTC of `from` up to (not including)
 * midnight of `to`. Its name says its span, and nothing else is named so:
 * `request_logs_wYYYYMMDD` a week from that Monday, `request_logs_pYYYYMMDD` one day (the
 * migration's, and days whose week another partition already overlaps).
 */
export interface PartitionSpan {
  name: string;
  from: UtcDay;
  to: UtcDay;
}

const PARTITION_NAME = /^request_logs_([pw])(\d{4})(\d{2})(\d{2})$/;

export function dayPartition(day: UtcDay): PartitionSpan {
  return { name: `request_logs_p${day.replace(/-/g, '')}`, from: day, to: dayAfter(day) };
}

/** The partition of the week (Monday to Sunday) that holds `day`. */
export function weekPartition(day: UtcDay): PartitionSpan {
  const monday = mondayOf(day);
  return { name: `request_logs_w${monday.replace(/-/g, '')}`, from: monday, to: dayAfter(monday, 7) };
}

/** The span a partition's name says, or null for a table not named as the upkeep names them. */
function spanOfPartition(name: string): PartitionSpan | null {
  const match = PARTITION_NAME.exec(name);
  if (!match) return null;
  const day = `${match[2]}-${match[3]}-${match[4]}` as UtcDay;
  const span = match[1] === 'w' ? weekPartition(day) : dayPartition(day);
  // A week's name is its Monday: any other day is not a name the upkeep gave.
  return span.name === name ? span : null;
}

/** Any constant works; it only has to be the same in every scheduler. */
const UPKEEP_LOCK_KEY = 7_264_002;

/**
 * The DDL of request_logs' partitions: creating one (moving in any rows the default partition
 * took for its span), dropping one, and deleting the rows past retention from a partition that
 * also holds kept days and from the default partition. Every statement that needs a lock on
 * request_logs runs with a lock timeout, so it gives up instead of queueing the API's writes and
 * the portal's reads behind a long query.
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

  /** The partitions the upkeep manages (days and weeks; not the default), oldest first. */
  async partitions(): Promise<PartitionSpan[]> {
    const rows = (await this.runner.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'request_logs'::regclass`,
    )) as Array<{ name: string }>;
    return rows
      .map((r) => spanOfPartition(r.name))
      .filter((span): span is PartitionSpan => span !== null)
      .sort((a, b) => a.from.localeCompare(b.from));
  }

  /** The UTC days of the rows waiting in the default partition (none while the upkeep keeps up). */
  async daysInDefaultPartition(): Promise<UtcDay[]> {
    const rows = (await this.runner.query(
      `SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM ONLY ${DEFAULT_PARTITION} ORDER BY 1`,
    )) as Array<{ day: string }>;
    return rows.map((r) => r.day as UtcDay);
  }

  /**
   * Creates the partition `span` and moves into it the rows the default partition holds for its
   * days, in one transaction: built as a plain table, filled, then attached. ATTACH takes only
   * SHARE UPDATE EXCLUSIVE on request_logs (writes and reads go on), where CREATE TABLE …
   * PARTITION OF would take ACCESS EXCLUSIVE. The default partition is locked first, so no row
   * for the span can land there between the move and the attach. Returns the rows moved.
   */
  async createPartition(span: PartitionSpan, lockTimeoutMs: number): Promise<number> {
    const from = `${span.from}T00:00:00Z`;
    const to = `${span.to}T00:00:00Z`;
    return this.inTransaction(lockTimeoutMs, async () => {
      await this.runner.query(`LOCK TABLE ${DEFAULT_PARTITION} IN ACCESS EXCLUSIVE MODE`);
      await this.runner.query(`CREATE TABLE ${span.name} (LIKE request_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      const [{ moved }] = (await this.runner.query(
        `WITH moved AS (DELETE FROM ONLY ${DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2 RETURNING *),
              inserted AS (INSERT INTO ${span.name} SELECT * FROM moved RETURNING 1)
         SELECT count(*)::int AS moved FROM inserted`,
        [from, to],
      )) as Array<{ moved: number }>;
      await this.runner.query(`ALTER TABLE request_logs ATTACH PARTITION ${span.name} FOR VALUES FROM ('${from}') TO ('${to}')`);
      return moved;
    });
  }

  /** Drops a partition with every row in it: a catalog change, however many rows. */
  async dropPartition(span: PartitionSpan, lockTimeoutMs: number): Promise<void> {
    await this.inTransaction(lockTimeoutMs, () => this.runner.query(`DROP TABLE ${span.name}`));
  }

  /**
   * Deletes one bounded batch of the rows of `table` (a partition, or the default one) older
   * than `cutoff`, and says how many went. Takes no lock on request_logs itself: writes and reads
   * go on.
   */
  async deleteRowsBefore(table: string, cutoff: Date, batchSize: number): Promise<number> {
    const [{ deleted }] = (await this.runner.query(
      `WITH doomed AS (
         SELECT ctid FROM ONLY ${table} WHERE created_at < $1 LIMIT $2
       ), deleted AS (
         DELETE FROM ONLY ${table} d USING doomed WHERE d.ctid = doomed.ctid RETURNING 1
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
