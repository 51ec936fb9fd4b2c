import { Inject, Injectable } from '@nestjs/common';
import { type PartitionSession, RequestLogPartitionsRepository } from './request-log-partitions.repository';
import { REQUEST_LOGS_OPTIONS, type RequestLogsOptions } from './request-logs.options';
import { dayAfter, startOf, type UtcDay, utcDayOf } from './utc-day';

const DAY_MS = 86_400_000;

/** What one upkeep run did. */
export interface PartitionUpkeepResult {
  /** False when another scheduler was running the upkeep at that moment (it does the work). */
  ran: boolean;
  /** Days whose partition was created. */
  created: UtcDay[];
  /** Days whose partition was dropped, every row in it with it. */
  dropped: UtcDay[];
  /** Rows moved out of the default partition into the partition of their day. */
  movedFromDefault: number;
  /** Rows past retention deleted from the default partition. */
  deletedFromDefault: number;
  /** Steps that failed (typically a lock not obtained in time); the next run tries them again. */
  failures: Array<{ step: string; error: string }>;
}

/**
 * Keeps request_logs' day partitions (migration PartitionRequestLogs) and enforces retention:
 * a partition is ready for today and the next `partitionDaysAhead` days before any row needs it;
 * rows the default partition took meanwhile (the upkeep lagged, or a clock ran far ahead) move to
 * their day's partition; a day's partition is dropped once the whole day is older than the
 * retention, so a row is kept at least the retention and less than one day more. Runs in one
 * scheduler at a time (an advisory lock; the others skip), and each change commits on its own.
 */
@Injectable()
export class RequestLogPartitionsService {
  constructor(
    private readonly repository: RequestLogPartitionsRepository,
    @Inject(REQUEST_LOGS_OPTIONS) private readonly options: RequestLogsOptions,
  ) {}

  async maintain(now: Date, retentionDays: number): Promise<PartitionUpkeepResult> {
    const result = await this.repository.withUpkeepLock((session) => this.maintainWith(session, now, retentionDays));
    return result ?? { ran: false, created: [], dropped: [], movedFromDefault: 0, deletedFromDefault: 0, failures: [] };
  }

  private async maintainWith(session: PartitionSession, now: Date, retentionDays: number): Promise<PartitionUpkeepResult> {
    const result: PartitionUpkeepResult = { ran: true, created: [], dropped: [], movedFromDefault: 0, deletedFromDefault: 0, failures: [] };
    const lockTimeout = this.options.partitionLockTimeoutMs;
    // The first day still kept: days before it are entirely older than the retention.
    const firstKeptDay = utcDayOf(new Date(now.getTime() - retentionDays * DAY_MS));
    const kept = (day: UtcDay) => day >= firstKeptDay;
    const attempt = async (step: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        result.failures.push({ step, error: error instanceof Error ? error.message : String(error) });
      }
    };

    const existing = new Set(await session.dayPartitions());
    const wanted = new Set<UtcDay>();
    for (let i = 0; i <= this.options.partitionDaysAhead; i++) wanted.add(dayAfter(utcDayOf(now), i));
    for (const day of await session.daysInDefaultPartition()) if (kept(day)) wanted.add(day);
    for (const day of [...wanted].sort()) {
      if (existing.has(day)) continue;
      await attempt(`create partition ${day}`, async () => {
        result.movedFromDefault += await session.createDayPartition(day, lockTimeout);
        result.created.push(day);
      });
    }

    for (const day of existing) {
      if (kept(day)) continue;
      await attempt(`drop partition ${day}`, async () => {
        await session.dropDayPartition(day, lockTimeout);
        result.dropped.push(day);
      });
    }

    await attempt('delete expired rows from the default partition', async () => {
      const cutoff = startOf(firstKeptDay);
      for (;;) {
        const deleted = await session.deleteDefaultRowsBefore(cutoff, this.options.purgeBatchSize);
        result.deletedFromDefault += deleted;
        if (deleted < this.options.purgeBatchSize) return;
      }
    });
    return result;
  }
}
