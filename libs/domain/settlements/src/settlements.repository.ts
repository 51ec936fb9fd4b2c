import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode, SettlementStatus } from '@gateway/contracts';
import { Amount, type Currency, type DeveloperContext, fromStatesOf, newestFirst, type Page, targetOf } from '@gateway/platform';
import { type EntityManager, In, IsNull, QueryFailedError, type Repository } from 'typeorm';
import { SettlementDecisionEntity } from './settlement-decision.entity';
import { SettlementEntity } from './settlement.entity';
import { SETTLEMENT_TRANSITIONS, type SettlementTransition } from './settlement-status';

export interface SettlementListFilter {
  limit: number;
  cursor?: string;
  status?: SettlementStatus;
  currency?: Currency;
  from?: Date;
  to?: Date;
}

/** What a move writes besides the status. */
export type SettlementChanges = Partial<Pick<SettlementEntity, 'approvedAt' | 'completedAt' | 'failureReason' | 'rejectionReason'>>;

/** Settlements and their decisions. Tenant reads take a DeveloperContext; staff and scans read across accounts. */
@Injectable()
export class SettlementsRepository {
  constructor(
    @InjectRepository(SettlementEntity) private readonly settlements: Repository<SettlementEntity>,
    @InjectRepository(SettlementDecisionEntity) private readonly decisions: Repository<SettlementDecisionEntity>,
  ) {}

  findById(id: string, manager: EntityManager = this.settlements.manager): Promise<SettlementEntity> {
    return manager.getRepository(SettlementEntity).findOneByOrFail({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<SettlementEntity | null> {
    return this.settlements.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode as 'live' });
  }

  /** Any account's settlement (staff, the provider's callbacks). */
  findAnyByReference(reference: string): Promise<SettlementEntity | null> {
    return this.settlements.findOneBy({ reference });
  }

  /** The row, locked for the caller's transaction: decisions and settlements depend on its status. */
  lock(manager: EntityManager, id: string): Promise<SettlementEntity> {
    return manager.getRepository(SettlementEntity).createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOneOrFail();
  }

  async list(ctx: DeveloperContext | null, filter: SettlementListFilter): Promise<Page<SettlementEntity>> {
    const page = newestFirst.page(filter);
    const query = this.settlements.createQueryBuilder('s');
    if (ctx) query.where('s.developer_id = :developerId AND s.mode = :mode', ctx);
    if (filter.status) query.andWhere('s.status = :status', { status: filter.status });
    if (filter.currency) query.andWhere('s.currency = :currency', { currency: filter.currency });
    if (filter.from) query.andWhere('s.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('s.created_at < :to', { to: filter.to });
    return page.toPage(await page.applyTo(query, 's').getMany(), (s) => s);
  }

  /** How many settlements the tenant's list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date; status?: SettlementStatus; currency?: Currency }): Promise<number> {
    const query = this.settlements.createQueryBuilder('s').where('s.developer_id = :developerId AND s.mode = :mode', ctx);
    query.andWhere('s.created_at >= :from AND s.created_at < :to', range);
    if (range.status) query.andWhere('s.status = :status', { status: range.status });
    if (range.currency) query.andWhere('s.currency = :currency', { currency: range.currency });
    return query.getCount();
  }

  /** Settlements waiting for approval, every account's: count and exact sum per mode and currency (settlements_queue (status, created_at)). */
  async pendingApprovalTotals(): Promise<Array<{ mode: Mode; currency: Currency; count: number; amount: Amount }>> {
    const rows: Array<{ mode: Mode; currency: Currency; count: number; amount: string }> = await this.settlements.manager.query(
      `SELECT mode, currency, count(*)::int AS count, sum(amount)::text AS amount FROM settlements WHERE status = 'pending_approval' GROUP BY mode, currency ORDER BY mode, currency`,
    );
    return rows.map((r) => ({ mode: r.mode, currency: r.currency, count: r.count, amount: Amount.parse(r.amount) }));
  }

  /** @throws QueryFailedError — see isDuplicateAutoPeriod */
  insert(manager: EntityManager, settlement: SettlementEntity): Promise<SettlementEntity> {
    return manager.getRepository(SettlementEntity).save(manager.getRepository(SettlementEntity).create(settlement));
  }

  /** Moves the settlement along `transition` (only from the statuses it allows); false when it moved already. */
  async move(manager: EntityManager, id: string, transition: SettlementTransition, changes: SettlementChanges, now: Date): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(SettlementEntity)
      .set({ ...changes, status: targetOf(SETTLEMENT_TRANSITIONS, transition), updatedAt: now })
      .where('id = :id AND status IN (:...from)', { id, from: fromStatesOf(SETTLEMENT_TRANSITIONS, transition) })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async recordProviderCode(id: string, providerTransferCode: string, now: Date): Promise<void> {
    await this.settlements.update({ id, providerTransferCode: IsNull() }, { providerTransferCode, updatedAt: now });
  }

  insertDecision(manager: EntityManager, decision: SettlementDecisionEntity): Promise<SettlementDecisionEntity> {
    return manager.getRepository(SettlementDecisionEntity).save(manager.getRepository(SettlementDecisionEntity).create(decision));
  }

  decisionsOf(settlementIds: string[], manager: EntityManager = this.decisions.manager): Promise<SettlementDecisionEntity[]> {
    if (settlementIds.length === 0) return Promise.resolve([]);
    return manager.getRepository(SettlementDecisionEntity).find({ where: { settlementId: In(settlementIds) }, order: { createdAt: 'ASC' } });
  }

  /**
   * Claims up to `limit` settlements in `statuses` untouched since `staleBefore` by moving their
   * updated_at on (SKIP LOCKED: concurrent scans claim disjoint rows); returns their ids.
   */
  async claimStale(statuses: SettlementStatus[], now: Date, staleBefore: Date, limit: number): Promise<string[]> {
    const [claimed] = (await this.settlements.query(
      `UPDATE settlements SET updated_at = $1
        WHERE id IN (SELECT id FROM settlements WHERE status = ANY ($4::text[]) AND updated_at < $2
                      ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, staleBefore, limit, statuses],
    )) as [Array<{ id: string }>, number];
    return claimed.map((row) => row.id);
  }
}

/** Whether an insert lost to another auto-settlement of the same account, currency and period. */
export function isDuplicateAutoPeriod(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'settlements_auto_period';
}

/** Whether a decision insert found the person had decided on this settlement already. */
export function isDuplicateDecision(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'settlement_decisions_once';
}
