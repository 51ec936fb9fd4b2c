import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { SubscriptionBillingService } from '@gateway/domain/subscriptions';
import { ScanRunner } from '@gateway/platform';

/** Claims at most this many due subscriptions per call; the run goes on while calls come back full. */
const BATCH = 100;

/**
 * Every 5 minutes (the spec's billing scan), charges the subscriptions whose period or retry is
 * due. Each is claimed (FOR UPDATE SKIP LOCKED + a claim that goes stale after a crash) and each
 * period's charge is a payment unique per subscription, period and attempt, so any number of
 * schedulers can run this and no period is charged twice. Several missed periods are caught up
 * one call at a time.
 */
@Injectable()
export class SubscriptionBillingJob {
  private readonly logger = new Logger('SubscriptionBilling');
  private readonly scan = new ScanRunner<number>(this.logger, 'Subscription billing scan failed', 0);

  constructor(private readonly billing: SubscriptionBillingService) {}

  /** Returns how many subscriptions this run processed (0 when the previous run is still going). */
  @Cron('0 */5 * * * *', { name: 'subscription-billing' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      let total = 0;
      for (let processed = BATCH; processed === BATCH; total += processed) processed = await this.billing.billDue(BATCH);
      if (total > 0) this.logger.log(`Billed ${total} subscriptions`);
      return total;
    });
  }
}
