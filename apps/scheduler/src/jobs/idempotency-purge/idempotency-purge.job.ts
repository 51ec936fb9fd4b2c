import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { IdempotencyService } from '@gateway/domain/idempotency';
import { APP_CONFIG, type AppConfig, Clock, ScanRunner } from '@gateway/platform';

const HOUR_MS = 3_600_000;

/**
 * Forgets idempotency keys once they are older than IDEMPOTENCY_RETENTION_HOURS (at least 24 h),
 * so a key lives between the retention and the retention plus one run interval. Several
 * schedulers may run it at the same moment: the purge skips rows another one is deleting.
 */
@Injectable()
export class IdempotencyPurgeJob {
  private readonly logger = new Logger('IdempotencyPurge');
  // On failure the next tick retries: nothing is lost by keeping keys longer.
  private readonly scan = new ScanRunner<number>(this.logger, 'Idempotency key purge failed', 0);

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Returns how many keys this run deleted (0 when the previous run is still going). */
  @Cron(CronExpression.EVERY_HOUR, { name: 'idempotency-purge' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const cutoff = new Date(this.clock.now().getTime() - this.config.idempotency.retentionHours * HOUR_MS);
      const deleted = await this.idempotency.purgeOlderThan(cutoff);
      if (deleted > 0) this.logger.log(`Purged ${deleted} idempotency keys claimed before ${cutoff.toISOString()}`);
      return deleted;
    });
  }
}
