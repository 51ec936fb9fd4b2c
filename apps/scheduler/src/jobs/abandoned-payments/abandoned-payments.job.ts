import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { PaymentsMaintenanceService } from '@gateway/domain/payments';
import { ScanRunner } from '@gateway/platform';

/**
 * Every five minutes, pending payments not paid within PAYMENT_ABANDON_AFTER_HOURS (24 by default)
 * become `abandoned`, in batches of bounded size; each batch skips rows another transaction holds,
 * so several schedulers may run it at once.
 */
@Injectable()
export class AbandonedPaymentsJob {
  private readonly logger = new Logger('AbandonedPayments');
  private readonly scan = new ScanRunner<number>(this.logger, 'Abandoned-payments scan failed', 0);

  constructor(private readonly maintenance: PaymentsMaintenanceService) {}

  /** Returns how many payments this run abandoned (0 when the previous run is still going). */
  @Cron('0 */5 * * * *', { name: 'abandoned-payments' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const abandoned = await this.maintenance.abandonAllUnpaid();
      if (abandoned > 0) this.logger.log(`Marked ${abandoned} unpaid payments abandoned`);
      return abandoned;
    });
  }
}
