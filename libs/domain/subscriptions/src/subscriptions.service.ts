import { Injectable, Logger } from '@nestjs/common';
import { CustomersService, type Customer } from '@gateway/domain/customers';
import { type SavedCard, SavedCardsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { EventsService } from '@gateway/domain/webhooks';
import { PaymentProvider } from '@gateway/provider';
import { assertTransition, Clock, type DeveloperContext, DomainError, inTransaction, type Page, randomHex, timeOrderedUuid } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { firstPeriodStartingAtOrAfter, periodBounds, periodStart } from './billing-calendar';
import { PlansService } from './plans.service';
import type { SubscriptionEntity } from './subscription.entity';
import { toSubscriptionResponse } from './subscription.mapper';
import { SUBSCRIPTION_TRANSITIONS } from './subscription-status';
import { SubscriptionBillingService } from './subscription-billing.service';
import { type SubscriptionListFilter, SubscriptionsRepository } from './subscriptions.repository';

const DAY_MS = 24 * 60 * 60 * 1_000;

export interface NewSubscription {
  customerReference: string;
  planId: string;
  authorizationCode: string;
}

/**
 * Subscriptions (table `subscriptions`, docs/subscriptions.md): a customer's saved card charged
 * every interval of a plan. Created `trialing` (the plan has a trial) or charged at once; paused,
 * resumed and cancelled by the merchant; billed by SubscriptionBillingService. Every "now" is the
 * tenant's (test clocks move it in test mode).
 */
@Injectable()
export class SubscriptionsService {
  private readonly logger = new Logger(SubscriptionsService.name);

  constructor(
    private readonly repository: SubscriptionsRepository,
    private readonly plans: PlansService,
    private readonly billing: SubscriptionBillingService,
    private readonly customers: CustomersService,
    private readonly cards: SavedCardsService,
    private readonly events: EventsService,
    private readonly testClocks: TestClocksService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Subscribes the customer. With a trial: `trialing`, first charge when it ends. Without: the
   * first period is charged at once — `active` when paid, `past_due` when declined (retried on the
   * schedule); when the provider does not answer, it is created `active` with its charge pending,
   * and the billing scan completes that same charge (never a second one).
   * @throws customer_not_found, plan_not_found, plan_archived, validation_error (authorization_code not a reusable card of this customer),
   *         capability_not_supported
   */
  async create(ctx: DeveloperContext, input: NewSubscription): Promise<SubscriptionEntity> {
    const customer = await this.customers.get(ctx, input.customerReference);
    const plan = await this.plans.get(ctx, input.planId);
    if (!plan.active) throw new DomainError('plan_archived', 'The plan is archived: it takes no new subscriptions (existing ones continue).');
    const card = await this.cardOf(ctx, input.authorizationCode, customer);
    this.provider.capabilities(ctx.mode).require('payments', plan.currency);

    const now = await this.testClocks.now(ctx);
    const trialEnd = plan.trialPeriodDays > 0 ? new Date(now.getTime() + plan.trialPeriodDays * DAY_MS) : null;
    const anchor = trialEnd ?? now;
    const first = periodBounds(anchor, plan.interval, 1);
    const subscription: SubscriptionEntity = {
      id: timeOrderedUuid(),
      developerId: ctx.developerId,
      mode: ctx.mode,
      publicId: `SUB_${randomHex(10)}`,
      planId: plan.id,
      planPublicId: plan.publicId,
      customerId: customer.id,
      customerReference: customer.reference,
      email: card.email,
      authorizationCode: card.code,
      amount: plan.amount,
      currency: plan.currency,
      interval: plan.interval,
      status: trialEnd ? 'trialing' : 'active',
      trialEndAt: trialEnd,
      billingAnchorAt: anchor,
      currentPeriodStart: trialEnd ? now : first.start,
      currentPeriodEnd: trialEnd ?? first.end,
      duePeriod: 1,
      nextBillingAt: anchor,
      failedAttempts: 0,
      pastDueSince: null,
      // Charged below by this request: claimed so that no scan charges it alongside.
      claimedAt: trialEnd ? null : this.clock.now(),
      latestPaymentReference: null,
      latestChargeStatus: null,
      pausedAt: null,
      cancelledAt: null,
      cancellationReason: null,
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
    };
    await inTransaction(this.dataSource, (manager) => this.repository.insert(manager, subscription));
    if (!trialEnd) {
      try {
        await this.billing.chargeDuePeriod(subscription, now, ctx);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The subscription exists and its claim stays: the scan resumes this same charge once the claim is stale.
        this.logger.warn(`subscription ${subscription.publicId}: first charge not completed (${error.code}); the billing scan resumes it`);
      }
    }
    return (await this.repository.findById(ctx, subscription.id)) as SubscriptionEntity;
  }

  /** @throws subscription_not_found (also for another developer's or the other mode's subscription) */
  async get(ctx: DeveloperContext, id: string): Promise<SubscriptionEntity> {
    const subscription = await this.repository.findByPublicId(ctx, id);
    if (!subscription) throw new DomainError('subscription_not_found', 'No such subscription.');
    return subscription;
  }

  /** @throws validation_error (a cursor this list did not issue) */
  list(ctx: DeveloperContext, filter: SubscriptionListFilter): Promise<Page<SubscriptionEntity>> {
    return this.repository.list(ctx, filter);
  }

  /**
   * Stops billing (`subscription.paused`): no charge, no retry, until resumed. A charge already
   * running still records its outcome.
   * @throws subscription_not_found, invalid_state (paused or cancelled; the message names the status)
   */
  pause(ctx: DeveloperContext, id: string): Promise<SubscriptionEntity> {
    return this.change(ctx, id, async (manager, subscription) => {
      assertTransition(SUBSCRIPTION_TRANSITIONS, 'pause', subscription.status, `The subscription is ${subscription.status}; only a trialing, active or past_due subscription can be paused.`);
      const now = await this.testClocks.now(ctx, manager);
      const paused = await this.repository.move(manager, subscription, 'pause', { nextBillingAt: null, pausedAt: now, updatedAt: this.clock.now() });
      await this.events.emit(manager, ctx, 'subscription.paused', toSubscriptionResponse(paused));
      return paused;
    });
  }

  /**
   * Restarts billing from the first billing date (on the anchor's calendar) still ahead: periods
   * that started while paused are not charged, and an unpaid past_due period is forgiven. A trial
   * that has not ended goes on (`trialing`); otherwise `active`. No event (none in the catalog).
   * @throws subscription_not_found, invalid_state (not paused; the message names the status)
   */
  resume(ctx: DeveloperContext, id: string): Promise<SubscriptionEntity> {
    return this.change(ctx, id, async (manager, subscription) => {
      assertTransition(SUBSCRIPTION_TRANSITIONS, 'resume', subscription.status, `The subscription is ${subscription.status}; only a paused subscription can be resumed.`);
      const now = await this.testClocks.now(ctx, manager);
      const { billingAnchorAt: anchor, interval } = subscription;
      const common = { pausedAt: null, claimedAt: null, updatedAt: this.clock.now() };
      if (subscription.trialEndAt && now < subscription.trialEndAt && subscription.duePeriod === 1) {
        return this.repository.move(manager, subscription, 'resumeTrial', { ...common, nextBillingAt: anchor });
      }
      const duePeriod = firstPeriodStartingAtOrAfter(anchor, interval, now, subscription.duePeriod);
      // A later period starts afresh; the same period keeps its attempts, so its next charge is a new payment.
      const attempts = duePeriod === subscription.duePeriod ? {} : { failedAttempts: 0, pastDueSince: null };
      return this.repository.move(manager, subscription, 'resume', { ...common, ...attempts, duePeriod, nextBillingAt: periodStart(anchor, interval, duePeriod) });
    });
  }

  /**
   * Ends the subscription at once, for good (`subscription.cancelled`, reason `requested`). A
   * charge already running still records its payment, without restarting anything.
   * @throws subscription_not_found, invalid_state (already cancelled)
   */
  cancel(ctx: DeveloperContext, id: string): Promise<SubscriptionEntity> {
    return this.change(ctx, id, async (manager, subscription) => {
      assertTransition(SUBSCRIPTION_TRANSITIONS, 'cancel', subscription.status, `The subscription is ${subscription.status}; a cancelled subscription stays cancelled.`);
      const now = await this.testClocks.now(ctx, manager);
      const cancelled = await this.repository.move(manager, subscription, 'cancel', { nextBillingAt: null, cancelledAt: now, cancellationReason: 'requested', updatedAt: this.clock.now() });
      await this.events.emit(manager, ctx, 'subscription.cancelled', toSubscriptionResponse(cancelled));
      return cancelled;
    });
  }

  /** Runs a merchant's move on the subscription locked FOR UPDATE (a charge outcome waits for it, or it for the outcome). */
  private async change(ctx: DeveloperContext, id: string, move: (manager: EntityManager, subscription: SubscriptionEntity) => Promise<SubscriptionEntity>): Promise<SubscriptionEntity> {
    const { id: internalId } = await this.get(ctx, id);
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.repository.lock(manager, ctx, internalId);
      if (!locked) throw new DomainError('subscription_not_found', 'No such subscription.');
      return move(manager, locked);
    });
  }

  /**
   * The customer's own reusable saved card: an unknown code, another customer's card or a card
   * that cannot be charged again are all the same refusal, naming the field.
   * @throws validation_error
   */
  private async cardOf(ctx: DeveloperContext, code: string, customer: Customer): Promise<SavedCard> {
    const refused = new DomainError('validation_error', "authorization_code must be a reusable saved card of this customer (from one of the customer's successful payments).", {
      authorization_code: ['is not a reusable saved card of this customer'],
    });
    let card: SavedCard;
    try {
      card = await this.cards.require(ctx, code, customer.email);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'authorization_not_found' || error.code === 'validation_error')) throw refused;
      throw error;
    }
    if (card.customerId !== customer.id) throw refused;
    return card;
  }
}
