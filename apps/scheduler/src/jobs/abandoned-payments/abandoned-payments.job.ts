import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { PaymentsMaintenanceService } from '@gateway/domain/payments';

/**
 * Every five minutes, pending payments not paid within PAYMENT_ABANDON_AFTER_HOURS (24 by default)
 * become `abandoned`. One conditional UPDATE, so several schedulers may run it at once.
 */
@Injectable()
export class AbandonedPaymentsJob {
  private readonly logger = new Logger('AbandonedPayments');
  private running = false;

  constructor(private readonly maintenance: PaymentsMaintenanceService) {}

  /** Returns how many payments this run abandoned (0 when the previous run is still going). */
  @Cron('0 */5 * * * *', { name: 'abandoned-payments' })
  async run(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const abandoned = await this.maintenance.abandonUnpaid();
      if (abandoned > 0) this.logger.log(`Marked ${abandoned} unpaid payments abandoned`);
      return abandoned;
    } catch (error) {
      // Nothing half-done: the next tick scans again.
      this.logger.error('Abandoned-payments scan failed', error instanceof Error ? error.stack : String(error));
      return 0;
    } finally {
      this.running = false;
    }
  }
}
