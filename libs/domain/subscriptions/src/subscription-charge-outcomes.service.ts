import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { PaymentOutcomeHooks, type PaymentOutcomeListener, type PaymentView } from '@gateway/domain/payments';
import { EventsService } from '@gateway/domain/webhooks';
import { APP_CONFIG, type AppConfig, canMove, Clock, type DeveloperContext } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import { periodBounds, retryAt } from './billing-calendar';
import type { SubscriptionChargeEntity, SubscriptionEntity } from './subscription.entity';
import { toSubscriptionResponse } from './subscription.mapper';
import { SUBSCRIPTION_TRANSITIONS } from './subscription-status';
import { SubscriptionsRepository } from './subscriptions.repository';

/**
 * Records the outcome of a subscription's payment IN THE PAYMENT'S TRANSACTION (its status,
 * ledger entries and `payment.*` event commit with the subscription's move and `subscription.*`
 * event, or none do). Payments call it once per payment status move, so each outcome is applied once.
 *
 * - success of the due period: the period is paid — `active` (from trialing or past_due), the
 *   next period is due at its start, `subscription.charged`;
 * - failure of the due period's current attempt: `past_due` with a retry on the configured
 *   schedule (SUBSCRIPTION_RETRY_DAYS, counted from the period's first failure), or, after the last
 *   retry, `cancelled` (reason `payment_failed`): `subscription.charge_failed` (+ `subscription.cancelled`).
 * A payment that failed and later succeeds is money received: it pays its period if that period
 * is still the one due (a past_due subscription becomes active).
 */
@Injectable()
export class SubscriptionChargeOutcomesService implements PaymentOutcomeListener, OnModuleInit {
  private readonly logger = new Logger(SubscriptionChargeOutcomesService.name);

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly events: EventsService,
    private readonly hooks: PaymentOutcomeHooks,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.hooks.register(this);
  }

  /** Only a subscription's charge is acted on (chargeOf); any other payment's success is recorded in one statement. */
  concernsSuccessOf(payment: PaymentView['payment']): boolean {
    return payment.idempotencyScope === 'subscription';
  }

  async paymentSucceeded(manager: EntityManager, ctx: DeveloperContext, view: PaymentView): Promise<void> {
    const found = await this.chargeOf(manager, ctx, view);
    if (!found) return;
    const { charge, subscription } = found;
    const now = this.clock.now();
    await this.repository.settleCharge(manager, charge, 'success', now);
    const latest = { latestPaymentReference: charge.paymentReference, latestChargeStatus: 'success' as const, updatedAt: now };
    let updated: SubscriptionEntity;
    if (charge.period !== subscription.duePeriod || subscription.status === 'cancelled') {
      // A period already settled (an earlier attempt reported paid after a later one), or a
      // cancelled subscription: the money is credited (payment.success), the schedule stays.
      this.logger.warn(`subscription ${subscription.publicId}: payment ${charge.paymentReference} for period ${charge.period} succeeded outside the schedule (status ${subscription.status}, period ${subscription.duePeriod} due)`);
      updated = await this.repository.updateBilling(manager, subscription, latest);
    } else {
      const paid = periodBounds(subscription.billingAnchorAt, subscription.interval, charge.period);
      const fields = { ...latest, currentPeriodStart: paid.start, currentPeriodEnd: paid.end, duePeriod: charge.period + 1, failedAttempts: 0, pastDueSince: null, claimedAt: null };
      updated = canMove(SUBSCRIPTION_TRANSITIONS, 'charge', subscription.status)
        ? await this.repository.move(manager, subscription, 'charge', { ...fields, nextBillingAt: paid.end })
        : await this.repository.updateBilling(manager, subscription, fields); // paused: resume sets the next date
    }
    await this.events.emit(manager, ctx, 'subscription.charged', toSubscriptionResponse(updated));
  }

  async paymentFailed(manager: EntityManager, ctx: DeveloperContext, view: PaymentView): Promise<void> {
    const found = await this.chargeOf(manager, ctx, view);
    if (!found) return;
    const { charge, subscription } = found;
    const now = this.clock.now();
    await this.repository.settleCharge(manager, charge, 'failed', now);
    const latest = { latestPaymentReference: charge.paymentReference, latestChargeStatus: 'failed' as const, updatedAt: now };
    const current = charge.period === subscription.duePeriod && charge.attempt === subscription.failedAttempts + 1;
    if (!current || subscription.status === 'cancelled') {
      // An attempt already superseded, or a subscription cancelled while the charge ran: nothing more to bill.
      const updated = await this.repository.updateBilling(manager, subscription, current ? { ...latest, claimedAt: null } : { updatedAt: now });
      await this.events.emit(manager, ctx, 'subscription.charge_failed', toSubscriptionResponse(updated));
      return;
    }
    // The attempt is counted whatever the status, so the next attempt of this period (after a
    // resume, say) is a new payment and never the declined one again.
    const failedAttempts = subscription.failedAttempts + 1;
    const pastDueSince = subscription.pastDueSince ?? charge.attemptedAt;
    const unpaid = periodBounds(subscription.billingAnchorAt, subscription.interval, charge.period);
    const fields = { ...latest, failedAttempts, pastDueSince, claimedAt: null, currentPeriodStart: unpaid.start, currentPeriodEnd: unpaid.end };
    if (!canMove(SUBSCRIPTION_TRANSITIONS, 'failCharge', subscription.status)) {
      // Paused while the charge ran: no retry until resumed.
      const updated = await this.repository.updateBilling(manager, subscription, fields);
      await this.events.emit(manager, ctx, 'subscription.charge_failed', toSubscriptionResponse(updated));
      return;
    }
    const retry = retryAt(pastDueSince, this.config.subscriptions.retryDays, failedAttempts);
    if (retry) {
      const updated = await this.repository.move(manager, subscription, 'failCharge', { ...fields, nextBillingAt: retry });
      await this.events.emit(manager, ctx, 'subscription.charge_failed', toSubscriptionResponse(updated));
      return;
    }
    const cancelled = await this.repository.move(manager, subscription, 'exhaustRetries', {
      ...fields,
      nextBillingAt: null,
      cancelledAt: charge.attemptedAt,
      cancellationReason: 'payment_failed',
    });
    await this.events.emit(manager, ctx, 'subscription.charge_failed', toSubscriptionResponse(cancelled));
    await this.events.emit(manager, ctx, 'subscription.cancelled', toSubscriptionResponse(cancelled));
  }

  /** The period a payment was made for and its subscription, both locked; null for any other payment. */
  private async chargeOf(manager: EntityManager, ctx: DeveloperContext, view: PaymentView): Promise<{ charge: SubscriptionChargeEntity; subscription: SubscriptionEntity } | null> {
    if (view.payment.idempotencyScope !== 'subscription') return null;
    const charge = await this.repository.lockChargeOfPayment(manager, ctx, view.payment.id);
    if (!charge) return null;
    const subscription = await this.repository.lock(manager, ctx, charge.subscriptionId);
    if (!subscription) throw new Error(`subscription charge ${charge.id} names no subscription`);
    return { charge, subscription };
  }
}
