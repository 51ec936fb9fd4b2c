import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { PaymentIntentsUpkeepService } from '@gateway/domain/payment-intents';
import { ScanRunner } from '@gateway/platform';

/**
 * Every five minutes: holds past their 7 days become `expired`; releases still owed (an expiry or
 * cancel whose release failed, or a scan cut short) are retried until the provider confirms them;
 * creates never confirmed nor retried are given up and captures whose answer never came are
 * resumed. Conditional UPDATEs and idempotent provider calls, so several schedulers may run it.
 */
@Injectable()
export class PaymentIntentExpiryJob {
  private readonly logger = new Logger('PaymentIntentExpiry');
  // On failure the next tick retries: what a run did not finish is still owed.
  private readonly scan = new ScanRunner<number>(this.logger, 'Hold-upkeep scan failed', 0);

  constructor(private readonly intents: PaymentIntentsUpkeepService) {}

  @Cron('30 */5 * * * *', { name: 'payment-intent-expiry' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const expired = await this.intents.expireHolds();
      if (expired > 0) this.logger.log(`Expired ${expired} authorization holds`);
      const recovered = await this.intents.recoverInterrupted();
      if (recovered > 0) this.logger.log(`Resumed or gave up ${recovered} interrupted holds and captures`);
      return expired;
    });
  }
}
