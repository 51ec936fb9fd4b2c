import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { type PartitionUpkeepResult, RequestLogPartitionsService } from '@gateway/domain/request-logs';
import { APP_CONFIG, type AppConfig, Clock, ScanRunner } from '@gateway/platform';

/**
 * The request log's partition upkeep and retention, hourly at half past (apart from the other
 * hourly jobs) and once at start: partitions (a week each) ready for today and the week ahead,
 * rows the default partition took moved to their day, and the days older than
 * REQUEST_LOG_RETENTION_DAYS (90 by default) purged: a partition whose days have all expired is
 * dropped whole, the expired days of the oldest one kept are deleted from it. Several schedulers
 * may run it: one does the work, the others skip.
 */
@Injectable()
export class RequestLogPartitionsJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('RequestLogPartitions');
  // On failure the next tick retries: every change already made is committed and stays.
  private readonly scan = new ScanRunner<PartitionUpkeepResult | null>(this.logger, 'Request log partition upkeep failed', null);

  constructor(
    private readonly partitions: RequestLogPartitionsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** At start, so a scheduler back after a long stop has partitions ready before the next tick. */
  onApplicationBootstrap(): void {
    void this.run();
  }

  /** Returns what the run did (null when the previous run in this process is still going, or it failed). */
  @Cron('0 30 * * * *', { name: 'request-log-partitions' })
  run(): Promise<PartitionUpkeepResult | null> {
    return this.scan.run(async () => {
      const result = await this.partitions.maintain(this.clock.now(), this.config.requestLog.retentionDays);
      if (result.created.length) this.logger.log(`Created the request log partitions ${result.created.join(', ')}`);
      if (result.movedFromDefault) this.logger.warn(`Moved ${result.movedFromDefault} request log entries out of the default partition (the upkeep had lagged)`);
      if (result.dropped.length) this.logger.log(`Dropped the request log partitions ${result.dropped.join(', ')} (older than ${this.config.requestLog.retentionDays} days)`);
      const purged = result.deletedFromPartitions + result.deletedFromDefault;
      if (purged) this.logger.log(`Purged ${purged} request log entries older than ${this.config.requestLog.retentionDays} days`);
      for (const failure of result.failures) this.logger.warn(`Request log partition upkeep: could not ${failure.step} (retried next run): ${failure.error}`);
      return result;
    });
  }
}
