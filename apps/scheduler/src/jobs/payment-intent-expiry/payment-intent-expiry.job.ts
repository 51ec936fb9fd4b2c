import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { PaymentIntentsService } from '@gateway/domain/payments';

/**
 * Every five minutes, holds past their 7 days become `expired` and are released at the provider.
 * One conditional UPDATE decides, so several schedulers may run it at once.
 */
@Injectable()
export class PaymentIntentExpiryJob {
  private readonly logger = new Logger('PaymentIntentExpiry');
  private running = false;

  constructor(private readonly intents: PaymentIntentsService) {}

  @Cron('30 */5 * * * *', { name: 'payment-intent-expiry' })
  async run(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const expired = await this.intents.expireHolds();
      if (expired > 0) this.logger.log(`Expired ${expired} authorization holds`);
      return expired;
    } catch (error) {
      this.logger.error('Hold-expiry scan failed', error instanceof Error ? error.stack : String(error));
      return 0;
    } finally {
      this.running = false;
    }
  }
}
