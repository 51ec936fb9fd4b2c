import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PaymentChargesService } from '@gateway/domain/payments';
import { APP_CONFIG, type AppConfig, ScanRunner } from '@gateway/platform';

/** Drains at most this many due charges per tick; the next tick continues. */
const BATCH = 100;

/**
 * Every SCHEDULED_CHARGES_INTERVAL_SECONDS (a minute by default), charges the scheduled payments
 * whose charge_at has come. Each is claimed with FOR UPDATE SKIP LOCKED before the provider is
 * called, so any number of schedulers can run this and each payment is charged once.
 */
@Injectable()
export class ScheduledChargesJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('ScheduledCharges');
  private readonly scan = new ScanRunner<number>(this.logger, 'Scheduled-charges scan failed', 0);

  constructor(
    private readonly charges: PaymentChargesService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // An interval read from configuration, which a @Cron decorator's fixed expression cannot be.
    this.registry.addInterval('scheduled-charges', setInterval(() => void this.run(), this.config.payments.scheduledChargesIntervalMs));
  }

  /** Returns how many charges this run made (0 when the previous run is still going). */
  run(): Promise<number> {
    return this.scan.run(async () => {
      let total = 0;
      for (let charged = BATCH; charged === BATCH; total += charged) charged = await this.charges.chargeDue(BATCH);
      if (total > 0) this.logger.log(`Charged ${total} scheduled payments`);
      return total;
    });
  }
}
