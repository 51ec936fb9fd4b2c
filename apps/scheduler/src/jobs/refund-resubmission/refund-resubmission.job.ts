import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { RefundsService } from '@gateway/domain/refunds';
import { ScanRunner } from '@gateway/platform';

/**
 * Every minute, refunds the provider never accepted (their request timed out or crashed, and no
 * retry came) are submitted again under their own reference, which the provider treats
 * idempotently: a refund it did receive is answered, not made twice. Each is claimed before it is
 * sent, so several schedulers may run it.
 */
@Injectable()
export class RefundResubmissionJob {
  private readonly logger = new Logger('RefundResubmission');
  // On failure the next tick retries: an unaccepted refund stays pending with its debit.
  private readonly scan = new ScanRunner<number>(this.logger, 'Refund-resubmission scan failed', 0);

  constructor(private readonly refunds: RefundsService) {}

  /** Returns how many refunds this run resubmitted (0 when the previous run is still going). */
  @Cron('15 * * * * *', { name: 'refund-resubmission' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const resubmitted = await this.refunds.resubmitUnaccepted();
      if (resubmitted > 0) this.logger.log(`Resubmitted ${resubmitted} refunds not yet accepted by the provider`);
      return resubmitted;
    });
  }
}
