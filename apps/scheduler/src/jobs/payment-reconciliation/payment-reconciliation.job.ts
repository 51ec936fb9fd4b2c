import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PaymentsMaintenanceService } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/**
 * Every PAYMENT_RECONCILE_INTERVAL_SECONDS (a minute by default), payments still unconfirmed after
 * PAYMENT_RECONCILE_AFTER_SECONDS are verified with the provider by our reference: a confirmation
 * whose callback never came, for a merchant who never verifies, is found and credited once.
 * Payments are claimed one by one, so several schedulers may run it.
 */
@Injectable()
export class PaymentReconciliationJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('PaymentReconciliation');
  // On failure the next tick goes on: an unconfirmed payment stays due.
  private readonly scan = new ScanRunner<number>(this.logger, 'Payment-reconciliation scan failed', 0);

  constructor(
    private readonly maintenance: PaymentsMaintenanceService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('payment-reconciliation', setInterval(() => void this.run(), this.config.payments.reconcile.intervalMs));
  }

  /** Returns how many payments this run asked the provider about (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(async () => {
      const { asked, succeeded } = await this.maintenance.reconcileUnconfirmed();
      if (asked > 0) this.logger.log(`Asked the provider about ${asked} unconfirmed payments; ${succeeded} are successful`);
      return asked;
    });
  }
}
