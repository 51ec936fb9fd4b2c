import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { SettlementPayoutsService } from '@gateway/domain/settlements';
import { ScanRunner } from '@gateway/platform';

/**
 * Every minute, settlements approved but never sent (the process died after the approval) or paid
 * out without a word from the provider are verified at the provider and settled from its answer,
 * or sent under their own reference. Each is claimed first, so several schedulers may run it.
 */
@Injectable()
export class SettlementReconciliationJob {
  private readonly logger = new Logger('SettlementReconciliation');
  // On failure the next tick retries: the settlement keeps its reservation.
  private readonly scan = new ScanRunner<number>(this.logger, 'Settlement-reconciliation scan failed', 0);

  constructor(private readonly payouts: SettlementPayoutsService) {}

  @Cron('45 * * * * *', { name: 'settlement-reconciliation' })
  async run(): Promise<number> {
    return this.scan.run(async () => {
      const looked = await this.payouts.reconcile();
      if (looked > 0) this.logger.log(`Asked the provider about ${looked} settlements being paid out`);
      return looked;
    });
  }
}
