import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RefundsService } from '@gateway/domain/refunds';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/**
 * Every REFUND_RESUBMIT_INTERVAL_SECONDS (a minute by default), refunds the provider never accepted
 * (their request timed out or crashed, and no retry came) are submitted again, after looking for
 * them at the provider — which takes no idempotency key for refunds, so one it did make is adopted,
 * not made twice — and accepted refunds whose callback never came are reconciled. Each is claimed
 * before it is sent, so several schedulers may run it.
 */
@Injectable()
export class RefundResubmissionJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('RefundResubmission');
  // On failure the next tick retries: an unaccepted refund stays pending with its debit.
  private readonly scan = new ScanRunner<number>(this.logger, 'Refund-resubmission scan failed', 0);

  constructor(
    private readonly refunds: RefundsService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('refund-resubmission', setInterval(() => void this.run(), this.config.refunds.resubmitIntervalMs));
  }

  /** Returns how many refunds this run resubmitted (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(async () => {
      const resubmitted = await this.refunds.resubmitUnaccepted();
      if (resubmitted > 0) this.logger.log(`Resubmitted ${resubmitted} refunds not yet accepted by the provider`);
      return resubmitted;
    });
  }
}
