import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode, RefundStatus } from '@gateway/contracts';
import { type DeveloperContext, fromStatesOf, newestFirst, type Page, statusLiterals, targetOf } from '@gateway/platform';
import { type EntityManager, IsNull, QueryFailedError, type Repository } from 'typeorm';
import { RefundEntity } from './refund.entity';
import { REFUND_TRANSITIONS, type RefundTransition } from './refund-status';

/**
 * Refunds still awaiting the provider's word: the statuses a settlement starts from, as literals,
 * the predicate of the index refunds_pending_by_update (migration IndexDueScans), which the
 * resubmission's claim then reads by age.
 */
export const UNSETTLED = statusLiterals(fromStatesOf(REFUND_TRANSITIONS, 'process'));

export interface RefundListFilter {
  limit: number;
  cursor?: string;
  paymentReference?: string;
  /** Exports: only this status, and created in [from, to). */
  status?: RefundStatus;
  from?: Date;
  to?: Date;
}

/** Refund rows. Tenant reads take a DeveloperContext; the provider's callbacks and the scans know a mode or an id only. */
@Injectable()
export class RefundsRepository {
  constructor(@InjectRepository(RefundEntity) private readonly refunds: Repository<RefundEntity>) {}

  findById(id: string, manager: EntityManager = this.refunds.manager): Promise<RefundEntity> {
    return manager.getRepository(RefundEntity).findOneByOrFail({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<RefundEntity | null> {
    return this.refunds.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  findByIdempotencyKey(ctx: DeveloperContext, idempotencyKey: string): Promise<RefundEntity | null> {
    return this.refunds.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey });
  }

  findByProviderId(mode: Mode, providerRefundId: string): Promise<RefundEntity | null> {
    return this.refunds.findOneBy({ mode, providerRefundId });
  }

  /** A payment's refunds (of one mode), oldest first: the ones to match with the provider's list. */
  findOfPayment(mode: Mode, paymentReference: string, limit: number): Promise<RefundEntity[]> {
    return this.refunds.find({ where: { mode, paymentReference }, order: { createdAt: 'ASC' }, take: limit });
  }

  async list(ctx: DeveloperContext, filter: RefundListFilter): Promise<Page<RefundEntity>> {
    const page = newestFirst.page(filter);
    const query = this.refunds.createQueryBuilder('r').where('r.developer_id = :developerId AND r.mode = :mode', ctx);
    if (filter.paymentReference) query.andWhere('r.payment_reference = :paymentReference', { paymentReference: filter.paymentReference });
    if (filter.status) query.andWhere('r.status = :status', { status: filter.status });
    if (filter.from) query.andWhere('r.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('r.created_at < :to', { to: filter.to });
    return page.toPage(await page.applyTo(query, 'r').getMany(), (r) => r);
  }

  /** How many refunds the list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date; status?: RefundStatus }): Promise<number> {
    const query = this.refunds.createQueryBuilder('r').where('r.developer_id = :developerId AND r.mode = :mode', ctx);
    query.andWhere('r.created_at >= :from AND r.created_at < :to', range);
    if (range.status) query.andWhere('r.status = :status', { status: range.status });
    return query.getCount();
  }

  /**
   * Claims up to `limit` pending refunds untouched since `staleBefore` — unaccepted ones, and
   * accepted ones whose settling callback never came — by moving their updated_at on (SKIP LOCKED:
   * concurrent scans claim disjoint rows); returns their ids.
   */
  async claimStalePending(now: Date, staleBefore: Date, limit: number): Promise<string[]> {
    const [claimed] = (await this.refunds.query(
      `UPDATE refunds SET updated_at = $1
        WHERE id IN (SELECT id FROM refunds WHERE status IN (${UNSETTLED}) AND updated_at < $2
                      ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, staleBefore, limit],
    )) as [Array<{ id: string }>, number];
    return claimed.map((row) => row.id);
  }

  /** @throws QueryFailedError — see isDuplicateIdempotencyKey */
  insert(manager: EntityManager, refund: RefundEntity): Promise<RefundEntity> {
    return manager.getRepository(RefundEntity).save(manager.getRepository(RefundEntity).create(refund));
  }

  /**
   * Stores the provider's id for the refund, once: `recorded` now; `held` when the refund holds that
   * same provider refund already (the provider's answer and its callback race to record it, and
   * either may come first); `other` when it holds another, or the provider's refund is another
   * refund's (unique per mode). Only `recorded` stores anything.
   */
  async recordProviderId(id: string, providerRefundId: string, now: Date): Promise<'recorded' | 'held' | 'other'> {
    try {
      const result = await this.refunds.update({ id, providerRefundId: IsNull() }, { providerRefundId, updatedAt: now });
      if ((result.affected ?? 0) > 0) return 'recorded';
    } catch (error) {
      if (!(error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'refunds_provider_id')) throw error;
    }
    return (await this.findById(id)).providerRefundId === providerRefundId ? 'held' : 'other';
  }

  /** Settles the refund along `transition`; false when it was settled already (by a callback or another request). */
  async settle(manager: EntityManager, id: string, transition: RefundTransition, now: Date): Promise<boolean> {
    const [rows] = (await manager.query(`UPDATE refunds SET status = $2, processed_at = $3, updated_at = $3 WHERE id = $1 AND status = ANY ($4::text[]) RETURNING id`, [
      id,
      targetOf(REFUND_TRANSITIONS, transition),
      now,
      fromStatesOf(REFUND_TRANSITIONS, transition),
    ])) as [unknown[], number];
    return rows.length > 0;
  }
}

/** Whether an insert lost a race with a concurrent request carrying the same Idempotency-Key. */
export function isDuplicateIdempotencyKey(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'refunds_idempotency_key';
}
