import { Inject, Injectable, Logger } from '@nestjs/common';
import { MODES, type Mode } from '@gateway/contracts';
import { AnalyticsService } from '@gateway/domain/analytics';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, inTransaction } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentsRepository } from './payments.repository';

/** How many payments one transaction of the abandonment scan takes at most. */
export const ABANDON_BATCH = 500;

/** Background upkeep of payments, run by the scheduler (and on demand by the sandbox). */
@Injectable()
export class PaymentsMaintenanceService {
  private readonly logger = new Logger('PaymentReconciliation');

  constructor(
    private readonly repository: PaymentsRepository,
    private readonly confirmation: PaymentConfirmationService,
    private readonly analytics: AnalyticsService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Pending payments not paid within PAYMENT_ABANDON_AFTER_HOURS become `abandoned`, at most
   * `limit` of them, oldest first, in one transaction with their analytics totals (a decline on an
   * open checkout that is abandoned moves from failed). Safe on several schedulers at once: each
   * takes rows no other transaction holds (see PaymentsRepository.abandonUnpaid). A customer who
   * still pays later is credited by verify or the provider's callback (abandoned → success is
   * allowed). Returns how many payments were abandoned: fewer than `limit` once none is left.
   * `ctx` limits the scan to one tenant and `asOf` runs it as if it were that time (the sandbox).
   */
  abandonUnpaid(limit: number, ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const now = asOf ?? this.clock.now();
    const before = new Date(now.getTime() - this.config.payments.abandonAfterHours * 3_600_000);
    return inTransaction(this.dataSource, async (manager) => {
      const abandoned = await this.repository.abandonUnpaid(manager, before, now, limit, ctx);
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

  /**
   * Every unpaid payment due, in batches of ABANDON_BATCH (a transaction each, so a backlog after a
   * scheduler was down for days never becomes one transaction holding every row's lock). Returns
   * how many were abandoned.
   */
  async abandonAllUnpaid(ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    let total = 0;
    for (let abandoned = ABANDON_BATCH; abandoned === ABANDON_BATCH; total += abandoned) abandoned = await this.abandonUnpaid(ABANDON_BATCH, ctx, asOf);
    return total;
  }

  /**
   * Asks the provider about payments still unconfirmed PAYMENT_RECONCILE_AFTER_SECONDS after they
   * were made — a customer paid, the callback was lost and nobody verified — and records its answer
   * through verify, the path callbacks take too, so a payment is credited once whichever comes
   * first. Asked again when a payment's age has doubled, never past PAYMENT_RECONCILE_MAX_AGE_HOURS;
   * at most PAYMENT_RECONCILE_BATCH_SIZE per mode and run. Each payment is claimed before it is
   * asked about, so several schedulers share the work. A mode whose provider does not answer (504,
   * 502, its breaker open) is left for the next run rather than asked about every payment in turn.
   * Returns how many payments were asked about and how many of them are now successful.
   */
  async reconcileUnconfirmed(): Promise<{ asked: number; succeeded: number }> {
    const { afterMs, maxAgeHours, batchSize } = this.config.payments.reconcile;
    const tally = { asked: 0, succeeded: 0 };
    for (const mode of MODES) {
      for (let n = 0; n < batchSize; n++) {
        const claimed = await this.repository.claimForReconciliation(mode, this.clock.now(), { ms: afterMs }, { hours: maxAgeHours });
        if (!claimed) break;
        if (!claimed.ask) continue; // a schedule whose payment has settled or aged out, now removed
        tally.asked++;
        const outcome = await this.askProvider(mode, claimed);
        if (outcome === 'success') tally.succeeded++;
        if (outcome === 'no answer') break;
      }
    }
    return tally;
  }

  private async askProvider(mode: Mode, payment: { developerId: string; reference: string }): Promise<string> {
    try {
      return (await this.confirmation.verify({ developerId: payment.developerId, mode }, payment.reference)).payment.status;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // a database failure ends the run (logged with its stack)
      this.logger.warn(`${mode} payment ${payment.reference}: not reconciled (${error.code})`);
      return error.code === 'gateway_timeout' || error.code === 'provider_error' ? 'no answer' : 'unknown';
    }
  }
}
