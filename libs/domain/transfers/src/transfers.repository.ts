import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode, TransferStatus } from '@gateway/contracts';
import { type Currency, type DeveloperContext, fromStatesOf, newestFirst, type Page, targetOf } from '@gateway/platform';
import { type EntityManager, In, IsNull, QueryFailedError, type Repository } from 'typeorm';
import { TransferEntity } from './transfer.entity';
import { TRANSFER_TRANSITIONS, type TransferTransition } from './transfer-status';

export interface TransferListFilter {
  limit: number;
  cursor?: string;
  status?: TransferStatus;
  currency?: Currency;
  recipientId?: string;
  from?: Date;
  to?: Date;
}

/** Transfer rows. Tenant reads take a DeveloperContext; the provider's callbacks and the scan know a mode or an id only. */
@Injectable()
export class TransfersRepository {
  constructor(@InjectRepository(TransferEntity) private readonly transfers: Repository<TransferEntity>) {}

  findById(id: string, manager: EntityManager = this.transfers.manager): Promise<TransferEntity> {
    return manager.getRepository(TransferEntity).findOneByOrFail({ id });
  }

  /** The row, locked for the caller's transaction (settlements decide on its status). */
  lock(manager: EntityManager, id: string): Promise<TransferEntity> {
    return manager.getRepository(TransferEntity).createQueryBuilder('t').setLock('pessimistic_write').where('t.id = :id', { id }).getOneOrFail();
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<TransferEntity | null> {
    return this.transfers.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** The transfer a provider callback names (our reference is the provider's). */
  findOfProvider(mode: Mode, reference: string): Promise<TransferEntity | null> {
    return this.transfers.findOneBy({ mode, reference });
  }

  findByIdempotencyKey(ctx: DeveloperContext, idempotencyKey: string): Promise<TransferEntity | null> {
    return this.transfers.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey });
  }

  /** The current status of each of the tenant's transfers among `references` (a batch's items show them). */
  async statusesOf(ctx: DeveloperContext, references: string[], manager: EntityManager = this.transfers.manager): Promise<Map<string, TransferStatus>> {
    const rows = references.length
      ? await manager.getRepository(TransferEntity).find({ select: { reference: true, status: true }, where: { developerId: ctx.developerId, mode: ctx.mode, reference: In(references) } })
      : [];
    return new Map(rows.map((row) => [row.reference, row.status]));
  }

  async list(ctx: DeveloperContext, filter: TransferListFilter): Promise<Page<TransferEntity>> {
    const page = newestFirst.page(filter);
    const query = this.transfers.createQueryBuilder('t').where('t.developer_id = :developerId AND t.mode = :mode', ctx);
    if (filter.status) query.andWhere('t.status = :status', { status: filter.status });
    if (filter.currency) query.andWhere('t.currency = :currency', { currency: filter.currency });
    if (filter.recipientId) query.andWhere('t.recipient_id = :recipientId', { recipientId: filter.recipientId });
    if (filter.from) query.andWhere('t.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('t.created_at < :to', { to: filter.to });
    return page.toPage(await page.applyTo(query, 't').getMany(), (t) => t);
  }

  /** How many transfers the list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date; status?: TransferStatus; currency?: Currency }): Promise<number> {
    const query = this.transfers.createQueryBuilder('t').where('t.developer_id = :developerId AND t.mode = :mode', ctx);
    query.andWhere('t.created_at >= :from AND t.created_at < :to', range);
    if (range.status) query.andWhere('t.status = :status', { status: range.status });
    if (range.currency) query.andWhere('t.currency = :currency', { currency: range.currency });
    return query.getCount();
  }

  /** @throws QueryFailedError — see isDuplicateIdempotencyKey */
  insert(manager: EntityManager, transfer: TransferEntity): Promise<TransferEntity> {
    return manager.getRepository(TransferEntity).save(manager.getRepository(TransferEntity).create(transfer));
  }

  /** Stores the provider's transfer code once; false when the transfer has one already. */
  async recordProviderCode(id: string, providerTransferCode: string, now: Date): Promise<boolean> {
    const result = await this.transfers.update({ id, providerTransferCode: IsNull() }, { providerTransferCode, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** Settles the transfer along `transition`; false when another request or callback moved it first. */
  async settle(manager: EntityManager, id: string, transition: TransferTransition, failureReason: string | null, now: Date): Promise<boolean> {
    const [rows] = (await manager.query(
      `UPDATE transfers SET status = $2, failure_reason = $3, completed_at = $4, updated_at = $4
        WHERE id = $1 AND status = ANY ($5::text[]) RETURNING id`,
      [id, targetOf(TRANSFER_TRANSITIONS, transition), failureReason, now, fromStatesOf(TRANSFER_TRANSITIONS, transition)],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` pending transfers untouched since `staleBefore` by moving their updated_at
   * on (SKIP LOCKED: concurrent scans claim disjoint rows); returns their ids.
   */
  async claimStalePending(now: Date, staleBefore: Date, limit: number): Promise<string[]> {
    const [claimed] = (await this.transfers.query(
      `UPDATE transfers SET updated_at = $1
        WHERE id IN (SELECT id FROM transfers WHERE status = 'pending' AND updated_at < $2
                      ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, staleBefore, limit],
    )) as [Array<{ id: string }>, number];
    return claimed.map((row) => row.id);
  }
}

/** Whether an insert lost a race with a concurrent request carrying the same Idempotency-Key. */
export function isDuplicateIdempotencyKey(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'transfers_idempotency_key';
}
