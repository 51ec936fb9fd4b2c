import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { RequestLogsService } from '@gateway/domain/request-logs';
import { APP_CONFIG, type AppConfig, Clock, ScanRunner } from '@gateway/platform';

const DAY_MS = 86_400_000;

/**
 * Deletes request log entries older than REQUEST_LOG_RETENTION_DAYS (90 by default), hourly, at
 * half past so it does not coincide with the other hourly jobs. The purge deletes in small batches
 * that each commit on their own, so no lock is held long, and several schedulers may run it at
 * the same moment: each skips the rows another one is deleting.
 */
@Injectable()
export class RequestLogPurgeJob {
  private readonly logger = new Logger('RequestLogPurge');
  // On failure the next tick retries: every batch already deleted stays deleted.
  private readonly scan = new ScanRunner<number>(this.logger, 'Request log purge failed', 0);

  constructor(
    private readonly requestLogs: RequestLogsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Returns how many entries this run deleted (0 when the previous run is still going). */
  @Cron('0 30 * * * *', { name: 'request-log-purge' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const cutoff = new Date(this.clock.now().getTime() - this.config.requestLog.retentionDays * DAY_MS);
      const deleted = await this.requestLogs.purgeOlderThan(cutoff);
      if (deleted > 0) this.logger.log(`Purged ${deleted} request log entries created before ${cutoff.toISOString()}`);
      return deleted;
    });
  }
}
