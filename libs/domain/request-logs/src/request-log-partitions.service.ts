import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_PARTITION, dayPartition, type PartitionSession, type PartitionSpan, RequestLogPartitionsRepository, weekPartition } from './request-log-partitions.repository';
import { REQUEST_LOGS_OPTIONS, type RequestLogsOptions } from './request-logs.options';
import { dayAfter, startOf, type UtcDay, utcDayOf } from './utc-day';

const DAY_MS = 86_400_000;

/** What one upkeep run did. */
export interface PartitionUpkeepResult {
  /** False when another scheduler was running the upkeep at that moment (it does the work). */
  ran: boolean;
  /** Partitions created (their table names, `request_logs_wYYYYMMDD` for a week). */
  created: string[];
  /** Partitions dropped, every row in them with them. */
  dropped: string[];
  /** Rows moved out of the default partition into the partition of their day. */
  movedFromDefault: number;
  /** Rows past retention deleted from the partition that also holds kept days. */
  deletedFromPartitions: number;
  /** Rows past retention deleted from the default partition. */
  deletedFromDefault: number;
  /** Steps that failed (typically a lock not obtained in time); the next run tries them again. */
  failures: Array<{ step: string; error: string }>;
}

/**
 * Keeps request_logs' partitions (migration PartitionRequestLogs) and enforces retention, by the
 * day, on partitions of a week:
 * - a partition is ready for today and the next `partitionDaysAhead` days before any row needs it:
 *   the week's (Monday to Sunday, UTC), or the day's alone when another partition already
 *   overlaps that week (the migration's day partitions, until they age out);
 * - rows the default partition took meanwhile (the upkeep lagged, or a clock ran far ahead) move
 *   to the partition of their day;
 * - a partition is dropped once all its days are older than the retention, and the rows of its
 *   expired days are deleted from it before that (in batches), so a row is kept at least the
 *   retention and less than one day more.
 * Weeks, not days, because every read without a lower time bound plans each partition (about a
 * hundred days at 90 days' retention: ~10 ms of planning a query, docs/request-logs.md).
 * Runs in one scheduler at a time (an advisory lock; the others skip), and each change commits
 * on its own.
 */
@Injectable()
export class RequestLogPartitionsService {
  constructor(
    private readonly repository: RequestLogPartitionsRepository,
    @Inject(REQUEST_LOGS_OPTIONS) private readonly options: RequestLogsOptions,
  ) {}

  async maintain(now: Date, retentionDays: number): Promise<PartitionUpkeepResult> {
    const result = await this.repository.withUpkeepLock((session) => this.maintainWith(session, now, retentionDays));
    return result ?? { ...nothingDone(), ran: false };
  }

  private async maintainWith(session: PartitionSession, now: Date, retentionDays: number): Promise<PartitionUpkeepResult> {
    const result = nothingDone();
    const lockTimeout = this.options.partitionLockTimeoutMs;
    // The first day still kept: days before it are entirely older than the retention.
    const firstKeptDay = utcDayOf(new Date(now.getTime() - retentionDays * DAY_MS));
    const attempt = async (step: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        result.failures.push({ step, error: error instanceof Error ? error.message : String(error) });
      }
    };

    const existing = await session.partitions();
    const wanted = new Set<UtcDay>();
    for (let i = 0; i <= this.options.partitionDaysAhead; i++) wanted.add(dayAfter(utcDayOf(now), i));
    for (const day of await session.daysInDefaultPartition()) if (day >= firstKeptDay) wanted.add(day);
    for (const day of [...wanted].sort()) {
      if (existing.some((p) => covers(p, day))) continue;
      const week = weekPartition(day);
      const span = existing.some((p) => overlaps(p, week)) ? dayPartition(day) : week;
      // Counted as existing even if its creation fails: its other days are not tried again in this run (the next run retries).
      existing.push(span);
      await attempt(`create partition ${span.name}`, async () => {
        result.movedFromDefault += await session.createPartition(span, lockTimeout);
        result.created.push(span.name);
      });
    }

    const cutoff = startOf(firstKeptDay);
    for (const partition of await session.partitions()) {
      if (partition.to <= firstKeptDay) {
        await attempt(`drop partition ${partition.name}`, async () => {
          await session.dropPartition(partition, lockTimeout);
          result.dropped.push(partition.name);
        });
      } else if (partition.from < firstKeptDay) {
        await attempt(`delete expired rows from ${partition.name}`, async () => {
          await this.deleteAllBefore(session, partition.name, cutoff, (deleted) => (result.deletedFromPartitions += deleted));
        });
      }
    }
    await attempt('delete expired rows from the default partition', async () => {
      await this.deleteAllBefore(session, DEFAULT_PARTITION, cutoff, (deleted) => (result.deletedFromDefault += deleted));
    });
    return result;
  }

  /** Deletes a table's rows older than `cutoff` batch by batch, each committed and counted as it goes. */
  private async deleteAllBefore(session: PartitionSession, table: string, cutoff: Date, count: (deleted: number) => void): Promise<void> {
    for (;;) {
      const deleted = await session.deleteRowsBefore(table, cutoff, this.options.purgeBatchSize);
      count(deleted);
      if (deleted < this.options.purgeBatchSize) return;
    }
  }
}

function nothingDone(): PartitionUpkeepResult {
  return { ran: true, created: [], dropped: [], movedFromDefault: 0, deletedFromPartitions: 0, deletedFromDefault: 0, failures: [] };
}

function covers(partition: PartitionSpan, day: UtcDay): boolean {
  return partition.from <= day && day < partition.to;
}

function overlaps(a: PartitionSpan, b: PartitionSpan): boolean {
  return a.from < b.to && b.from < a.to;
}
