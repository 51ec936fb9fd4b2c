import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext } from '@gateway/platform';
import { PaymentsRepository } from './payments.repository';

/** Background upkeep of payments, run by the scheduler (and on demand by the sandbox). */
@Injectable()
export class PaymentsMaintenanceService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Pending payments not paid within PAYMENT_ABANDON_AFTER_HOURS become `abandoned`. Safe to run
   * on several schedulers at once (a single conditional UPDATE). A customer who still pays later is
   * credited by verify or the provider's callback (abandoned → success is allowed).
   * Returns how many payments were abandoned; `ctx` limits the scan to one tenant and `asOf` runs
   * it as if it were that time (the sandbox).
   */
  abandonUnpaid(ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const now = asOf ?? this.clock.now();
    const before = new Date(now.getTime() - this.config.payments.abandonAfterHours * 3_600_000);
    return this.repository.abandonUnpaid(before, now, ctx);
  }
}
