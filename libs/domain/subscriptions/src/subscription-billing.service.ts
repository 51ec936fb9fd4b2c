import { Injectable, Logger } from '@nestjs/common';
import { type ChargeSavedCard, PaymentChargesService, PaymentsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { Clock, type DeveloperContext, inTransaction, type ServingRequest, tenantOf, timeOrderedUuid } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { SubscriptionEntity } from './subscription.entity';
import { SubscriptionChargeOutcomesService } from './subscription-charge-outcomes.service';
import { SubscriptionsRepository } from './subscriptions.repository';

/**
 * A claim older than this is taken to be a crashed (or timed-out) scheduler's: the subscription
 * is claimed again and its charge resumed — with the same payment, so never charged twice.
 */
export const STALE_CLAIM_MS = 5 * 60_000;

/**
 * The billing scan (docs/subscriptions.md#billing): charges every subscription whose next charge
 * (a period's billing date, or a retry's) has come, through its saved card.
 *
 * Exactly once per period: each attempt is a payment keyed `<subscription id>:<period>:<attempt>`
 * in the payments' `subscription` key space, unique per tenant. A second scheduler, a crash
 * mid-charge or a provider timeout resumes THAT payment, and the provider is called with its
 * reference again (which it never charges twice). A new attempt of a period is only made once the
 * previous one is recorded as failed. The outcome — period moved, status, event — is recorded by
 * SubscriptionChargeOutcomesService in the payment's own transaction.
 */
@Injectable()
export class SubscriptionBillingService {
  private readonly logger = new Logger(SubscriptionBillingService.name);

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly payments: PaymentsService,
    private readonly charges: PaymentChargesService,
    private readonly testClocks: TestClocksService,
    private readonly outcomes: SubscriptionChargeOutcomesService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Charges up to `limit` due subscriptions, each once per call (one period or retry each: call
   * again while it returns `limit` to catch up on several missed periods). Without `ctx`, every
   * tenant at real time; `ctx` limits it to one tenant, at its test clock's time unless `asOf`
   * gives one (the test-clock orchestrator). Safe with any number of concurrent callers.
   * Returns how many subscriptions it processed (charged, declined, or left pending).
   */
  async billDue(limit = 100, ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const claimedAt = this.clock.now();
    const now = asOf ?? (ctx ? await this.testClocks.now(ctx) : claimedAt);
    const due = await this.repository.claimDue(now, new Date(claimedAt.getTime() - STALE_CLAIM_MS), claimedAt, limit, ctx);
    for (const subscription of due) {
      try {
        await this.chargeDuePeriod(subscription, now, ctx);
      } catch (error) {
        // The claim stays: once stale, the same attempt is resumed (same payment, same reference).
        this.logger.warn(`subscription ${subscription.publicId}: charge of period ${subscription.duePeriod} not completed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return due.length;
  }

  /**
   * Makes (or resumes) the charge of the subscription's due period, attempt `failedAttempts + 1`,
   * at `attemptedAt` (the tenant's time: retries are scheduled from it). The caller holds the
   * subscription's claim. `within`: the request this runs in (a subscription's creation, a test
   * clock's advance), whose id the charge's postings and events record; none for the scheduler.
   * @throws gateway_timeout, provider_error (outcome unknown: resumed later), validation_error, authorization_not_found
   */
  async chargeDuePeriod(subscription: SubscriptionEntity, attemptedAt: Date, within?: ServingRequest): Promise<void> {
    const ctx = tenantOf(subscription, within);
    const period = subscription.duePeriod;
    const attempt = subscription.failedAttempts + 1;
    const key = `${subscription.id}:${period}:${attempt}`;
    const charge: ChargeSavedCard = {
      amount: subscription.amount.toNumber(),
      email: subscription.email,
      currency: subscription.currency,
      authorizationCode: subscription.authorizationCode,
      metadata: { subscription_id: subscription.publicId, period, attempt },
    };
    // The payment first, then the row mapping it to the period, then the provider: the outcome
    // (recorded with the payment) always finds its period, and a resumed attempt finds both.
    const payment = await this.payments.createPayment(ctx, charge, key, 'charge', 'subscription');
    const now = this.clock.now();
    await this.repository.recordAttempt({
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      subscriptionId: subscription.id,
      period,
      attempt,
      paymentId: payment.id,
      paymentReference: payment.reference,
      status: 'pending',
      attemptedAt,
      createdAt: now,
      updatedAt: now,
    });
    const view = await this.charges.chargeNow(ctx, charge, key, 'subscription');
    if (view.payment.status === 'abandoned') {
      // The provider never told the outcome within the abandonment delay: counted as a decline, so
      // dunning goes on with a new attempt (a late success still credits and is logged, not lost).
      this.logger.warn(`subscription ${subscription.publicId}: the payment of period ${period} was abandoned; counted as a failed attempt`);
      await inTransaction(this.dataSource, (manager) => this.outcomes.paymentFailed(manager, ctx, view));
    }
  }
}
