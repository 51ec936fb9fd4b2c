import { Inject, Injectable } from '@nestjs/common';
import { AnalyticsService } from '@gateway/domain/analytics';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, inTransaction } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { PaymentsRepository } from './payments.repository';

/** Background upkeep of payments, run by the scheduler (and on demand by the sandbox). */
@Injectable()
export class PaymentsMaintenanceService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly analytics: AnalyticsService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Pending payments not paid within PAYMENT_ABANDON_AFTER_HOURS become `abandoned`. Safe to run
   * on several schedulers at once (one conditional UPDATE, rows locked in id order); the analytics
   * totals move in the same transaction (a decline on an open checkout that is abandoned moves
   * from failed). A customer who still pays later is credited by verify or the provider's callback
   * (abandoned → success is allowed).
   * Returns how many payments were abandoned; `ctx` limits the scan to one tenant and `asOf` runs
   * it as if it were that time (the sandbox).
   */
  abandonUnpaid(ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const now = asOf ?? this.clock.now();
    const before = new Date(now.getTime() - this.config.payments.abandonAfterHours * 3_600_000);
    return inTransaction(this.dataSource, async (manager) => {
      const abandoned = await this.repository.abandonUnpaid(manager, before, now, ctx);
      await this.analytics.recordPaymentOutcomes(
        manager,
        abandoned.map((payment) => ({
          developerId: payment.developerId,
          mode: payment.mode,
          paymentId: payment.id,
          currency: payment.currency,
          outcome: 'abandoned',
          at: now,
          previous: payment.previousStatus === 'failed' ? { outcome: 'failed', at: payment.previousUpdatedAt } : null,
        })),
      );
      return abandoned.length;
    });
  }
}
