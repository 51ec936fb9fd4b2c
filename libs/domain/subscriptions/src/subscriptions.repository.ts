import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { SubscriptionChargeStatus, SubscriptionStatus } from '@gateway/contracts';
import { type DeveloperContext, fromStatesOf, newestFirst, type Page, statusLiterals, targetOf } from '@gateway/platform';
import { type EntityManager, In, type Repository } from 'typeorm';
import { SubscriptionChargeEntity, SubscriptionEntity } from './subscription.entity';
import { BILLABLE_STATUSES, SUBSCRIPTION_TRANSITIONS, type SubscriptionTransition } from './subscription-status';

export interface SubscriptionListFilter {
  limit: number;
  cursor?: string;
  status?: SubscriptionStatus;
  planId?: string;
  customerReference?: string;
}

/** What a status move also changes: the billing fields that go with the new status. */
export type SubscriptionMoveFields = Partial<
  Pick<
    SubscriptionEntity,
    | 'currentPeriodStart'
    | 'currentPeriodEnd'
    | 'duePeriod'
    | 'nextBillingAt'
    | 'failedAttempts'
    | 'pastDueSince'
    | 'claimedAt'
    | 'latestPaymentReference'
    | 'latestChargeStatus'
    | 'pausedAt'
    | 'cancelledAt'
    | 'cancellationReason'
  >
> & { updatedAt: Date };

/** The fixed text of the billing scan's claim (statuses as literals so the partial index applies). */
const CLAIM_DUE_SQL = `
  UPDATE subscriptions SET claimed_at = $1
   WHERE id IN (
     SELECT id FROM subscriptions
      WHERE status IN (${statusLiterals(BILLABLE_STATUSES)}) AND next_billing_at <= $2
        AND (claimed_at IS NULL OR claimed_at < $3)
        AND ($5::uuid IS NULL OR (developer_id = $5 AND mode = $6))
      ORDER BY next_billing_at
      LIMIT $4
      FOR UPDATE SKIP LOCKED)
  RETURNING id`;

/**
 * Subscription and subscription-charge rows. Tenant reads take a DeveloperContext; the billing
 * scan claims across tenants (or one, for the sandbox), and the charge outcomes find their row by
 * payment id within the payment's tenant.
 */
@Injectable()
export class SubscriptionsRepository {
  constructor(
    @InjectRepository(SubscriptionEntity) private readonly subscriptions: Repository<SubscriptionEntity>,
    @InjectRepository(SubscriptionChargeEntity) private readonly charges: Repository<SubscriptionChargeEntity>,
  ) {}

  get manager(): EntityManager {
    return this.subscriptions.manager;
  }

  async insert(manager: EntityManager, subscription: SubscriptionEntity): Promise<void> {
    await manager.getRepository(SubscriptionEntity).insert(subscription);
  }

  findByPublicId(ctx: DeveloperContext, publicId: string): Promise<SubscriptionEntity | null> {
    return this.subscriptions.findOneBy({ publicId, developerId: ctx.developerId, mode: ctx.mode });
  }

  findById(ctx: DeveloperContext, id: string, manager: EntityManager = this.manager): Promise<SubscriptionEntity | null> {
    return manager.getRepository(SubscriptionEntity).findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** The row locked FOR UPDATE until the caller's transaction ends (every status move decides on it). */
  lock(manager: EntityManager, ctx: DeveloperContext, id: string): Promise<SubscriptionEntity | null> {
    return manager.getRepository(SubscriptionEntity).findOne({ where: { id, developerId: ctx.developerId, mode: ctx.mode }, lock: { mode: 'pessimistic_write' } });
  }

  async list(ctx: DeveloperContext, filter: SubscriptionListFilter): Promise<Page<SubscriptionEntity>> {
    const page = newestFirst.page(filter);
    const query = this.subscriptions.createQueryBuilder('s').where('s.developer_id = :developerId AND s.mode = :mode', ctx);
    if (filter.status) query.andWhere('s.status = :status', { status: filter.status });
    if (filter.planId) query.andWhere('s.plan_public_id = :planId', { planId: filter.planId });
    if (filter.customerReference) query.andWhere('s.customer_reference = :customerReference', { customerReference: filter.customerReference });
    return page.toPage(await page.applyTo(query, 's').getMany(), (s) => s);
  }

  /**
   * Moves the subscription along `transition` with `fields`, on the row the caller locked. The
   * status condition is kept all the same: a move the table does not allow changes nothing.
   */
  async move(manager: EntityManager, current: SubscriptionEntity, transition: SubscriptionTransition, fields: SubscriptionMoveFields): Promise<SubscriptionEntity> {
    const status = targetOf(SUBSCRIPTION_TRANSITIONS, transition);
    const result = await manager
      .createQueryBuilder()
      .update(SubscriptionEntity)
      .set({ ...fields, status })
      .where({ id: current.id, developerId: current.developerId, mode: current.mode, status: In([...fromStatesOf(SUBSCRIPTION_TRANSITIONS, transition)]) })
      .execute();
    if (result.affected !== 1) throw new Error(`subscription ${current.publicId}: ${transition} is not allowed from ${current.status}`);
    return { ...current, ...fields, status };
  }

  /** Billing fields changed without a status move (a charge recorded on a paused or cancelled subscription). */
  async updateBilling(manager: EntityManager, current: SubscriptionEntity, fields: SubscriptionMoveFields): Promise<SubscriptionEntity> {
    await manager.getRepository(SubscriptionEntity).update({ id: current.id, developerId: current.developerId, mode: current.mode }, fields);
    return { ...current, ...fields };
  }

  /**
   * Claims up to `limit` billable subscriptions whose next charge is due at `now`, not claimed, or
   * claimed before `staleBefore` (a scheduler that crashed mid-charge). FOR UPDATE SKIP LOCKED
   * and the committed `claimed_at` keep any number of concurrent scans from claiming one twice.
   */
  async claimDue(now: Date, staleBefore: Date, claimedAt: Date, limit: number, ctx?: DeveloperContext): Promise<SubscriptionEntity[]> {
    const [rows] = (await this.subscriptions.query(CLAIM_DUE_SQL, [claimedAt, now, staleBefore, limit, ctx?.developerId ?? null, ctx?.mode ?? null])) as [Array<{ id: string }>, number];
    if (rows.length === 0) return [];
    const claimed = await this.subscriptions.findBy({ id: In(rows.map((r) => r.id)) });
    return claimed.sort((a, b) => (a.nextBillingAt?.getTime() ?? 0) - (b.nextBillingAt?.getTime() ?? 0));
  }

  /**
   * Records the payment of an attempt (once: a resumed attempt finds its row) and shows it as the
   * subscription's latest charge, pending until its outcome.
   */
  async recordAttempt(charge: SubscriptionChargeEntity): Promise<void> {
    await this.charges.manager.transaction(async (manager) => {
      const inserted = await manager.createQueryBuilder().insert().into(SubscriptionChargeEntity).values(charge).orIgnore().returning('id').execute();
      if (inserted.raw.length === 0) return;
      await manager
        .getRepository(SubscriptionEntity)
        .update({ id: charge.subscriptionId, developerId: charge.developerId, mode: charge.mode }, { latestPaymentReference: charge.paymentReference, latestChargeStatus: 'pending' });
    });
  }

  /** The attempt a payment was made for, locked, within the payment's transaction; null when the payment is not a subscription's. */
  lockChargeOfPayment(manager: EntityManager, ctx: DeveloperContext, paymentId: string): Promise<SubscriptionChargeEntity | null> {
    return manager
      .getRepository(SubscriptionChargeEntity)
      .findOne({ where: { paymentId, developerId: ctx.developerId, mode: ctx.mode }, lock: { mode: 'pessimistic_write' } });
  }

  async settleCharge(manager: EntityManager, charge: SubscriptionChargeEntity, status: SubscriptionChargeStatus, now: Date): Promise<void> {
    await manager.getRepository(SubscriptionChargeEntity).update({ id: charge.id, developerId: charge.developerId, mode: charge.mode }, { status, updatedAt: now });
  }
}
