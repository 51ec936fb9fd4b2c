import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { DisputeStatus, Mode } from '@gateway/contracts';
import { type Amount, type DeveloperContext, fromStatesOf, newestFirst, type Page, statusLiterals, targetOf } from '@gateway/platform';
import { type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { DisputeEntity, type DisputeEvidence } from './dispute.entity';
import { DISPUTE_TRANSITIONS, type DisputeTransition } from './dispute-status';

/** The statuses the expiry takes, as SQL literals: the partial index disputes_open_due then applies under a generic plan too. */
const EXPIRING = statusLiterals(fromStatesOf(DISPUTE_TRANSITIONS, 'expire'));

export interface DisputeListFilter {
  limit: number;
  cursor?: string;
  status?: DisputeStatus;
  /** Exports: created in [from, to). */
  from?: Date;
  to?: Date;
}

/** Dispute rows. Tenant reads take a DeveloperContext; the provider's callbacks and the scan know a mode or an id only. */
@Injectable()
export class DisputesRepository {
  constructor(@InjectRepository(DisputeEntity) private readonly disputes: Repository<DisputeEntity>) {}

  findById(id: string, manager: EntityManager = this.disputes.manager): Promise<DisputeEntity> {
    return manager.getRepository(DisputeEntity).findOneByOrFail({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<DisputeEntity | null> {
    return this.disputes.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  findByProviderId(mode: Mode, providerDisputeId: string): Promise<DisputeEntity | null> {
    return this.disputes.findOneBy({ mode, providerDisputeId });
  }

  async list(ctx: DeveloperContext, filter: DisputeListFilter): Promise<Page<DisputeEntity>> {
    const page = newestFirst.page(filter);
    const query = this.disputes.createQueryBuilder('d').where('d.developer_id = :developerId AND d.mode = :mode', ctx);
    if (filter.status) query.andWhere('d.status = :status', { status: filter.status });
    if (filter.from) query.andWhere('d.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('d.created_at < :to', { to: filter.to });
    return page.toPage(await page.applyTo(query, 'd').getMany(), (d) => d);
  }

  /** How many disputes the list shows for an export's range (rows_total). */
  countCreated(ctx: DeveloperContext, range: { from: Date; to: Date; status?: DisputeStatus }): Promise<number> {
    const query = this.disputes.createQueryBuilder('d').where('d.developer_id = :developerId AND d.mode = :mode', ctx);
    query.andWhere('d.created_at >= :from AND d.created_at < :to', range);
    if (range.status) query.andWhere('d.status = :status', { status: range.status });
    return query.getCount();
  }

  /** Open disputes whose evidence deadline is before `now`, oldest deadline first (optionally one tenant's: the sandbox). */
  async findOverdue(now: Date, limit: number, ctx?: DeveloperContext): Promise<string[]> {
    const query = this.disputes
      .createQueryBuilder('d')
      .select('d.id', 'id')
      .where(`d.status IN (${EXPIRING}) AND d.evidence_due_at < :now`, { now })
      .orderBy('d.evidence_due_at', 'ASC')
      .limit(limit);
    if (ctx) query.andWhere('d.developer_id = :developerId AND d.mode = :mode', ctx);
    return (await query.getRawMany<{ id: string }>()).map((row) => row.id);
  }

  /** @throws QueryFailedError — see isDuplicateProviderDispute */
  async insert(manager: EntityManager, dispute: DisputeEntity): Promise<void> {
    await manager.getRepository(DisputeEntity).insert(dispute);
  }

  /** The amount the creating transaction could hold (set once, in that transaction, right after the insert). */
  async recordHeld(manager: EntityManager, id: string, heldAmount: Amount): Promise<void> {
    await manager.getRepository(DisputeEntity).update({ id }, { heldAmount });
  }

  /**
   * Moves the dispute along `transition` if its status allows it (one conditional UPDATE, so of
   * two racing moves exactly one wins); returns the row as moved, or null when it did not move.
   */
  async move(
    manager: EntityManager,
    id: string,
    transition: DisputeTransition,
    now: Date,
    evidence?: DisputeEvidence,
  ): Promise<DisputeEntity | null> {
    const closes = transition !== 'submitEvidence';
    const [rows] = (await manager.query(
      `UPDATE disputes SET status = $2, updated_at = $3,
              resolved_at = CASE WHEN $4::boolean THEN $3 ELSE resolved_at END,
              evidence = COALESCE($5::jsonb, evidence),
              submitted_at = CASE WHEN $5::jsonb IS NULL THEN submitted_at ELSE $3 END
        WHERE id = $1 AND status = ANY ($6::text[])
        RETURNING id`,
      [id, targetOf(DISPUTE_TRANSITIONS, transition), now, closes, evidence ? JSON.stringify(evidence) : null, fromStatesOf(DISPUTE_TRANSITIONS, transition)],
    )) as [unknown[], number];
    return rows.length > 0 ? this.findById(id, manager) : null;
  }
}

/** Whether an insert lost a race with a repeated callback for the same provider dispute. */
export function isDuplicateProviderDispute(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'disputes_provider_id';
}
