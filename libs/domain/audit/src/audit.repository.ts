import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { defineCursor, defineKeyset, type KeysetPageQuery } from '@gateway/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuditActorType, AuditFilter, AuditState } from './audit-event';

const SEQ_FIELDS = { seq: 'bigint' } as const;
/** Audit lists page by insertion order, newest first (occurred_at comes from the clock and may tie). */
export const auditOrder = defineKeyset(defineCursor(SEQ_FIELDS), { seq: 'seq' });
export type AuditPage = KeysetPageQuery<typeof SEQ_FIELDS>;

export interface AuditRow {
  id: string;
  seq: string;
  occurred_at: Date;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_label: string | null;
  developer_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  before: AuditState | null;
  after: AuditState | null;
}

export interface NewAuditRow {
  id: string;
  occurredAt: Date;
  actorType: AuditActorType;
  actorId: string | null;
  actorLabel: string | null;
  developerId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  before: AuditState | null;
  after: AuditState | null;
}

const COLUMNS = `e.id, e.seq::text AS seq, occurred_at, actor_type, actor_id, actor_label, developer_id, action, target_type, target_id, ip, before, after`;

/** SQL for audit_events: inserts only (the table refuses UPDATE and DELETE) and keyset reads. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts through the caller's manager, so the row commits or rolls back with the action. */
  async insert(manager: EntityManager, row: NewAuditRow): Promise<void> {
    await manager.query(
      `INSERT INTO audit_events (id, occurred_at, actor_type, actor_id, actor_label, developer_id, action, target_type, target_id, ip, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        row.id,
        row.occurredAt,
        row.actorType,
        row.actorId,
        row.actorLabel,
        row.developerId,
        row.action,
        row.targetType,
        row.targetId,
        row.ip,
        row.before === null ? null : JSON.stringify(row.before),
        row.after === null ? null : JSON.stringify(row.after),
      ],
    );
  }

  /** One page, newest first (limit + 1 rows). */
  async page(filter: AuditFilter, page: AuditPage): Promise<AuditRow[]> {
    const { where, params } = conditions(filter);
    // Qualified: the output column `seq` is text (bigint does not fit a JS number), the table's is the bigint to order by.
    const keyset = page.sql((value) => {
      params.push(value);
      return `$${params.length}`;
    }, 'e');
    if (keyset.where) where.push(keyset.where);
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM audit_events e ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${keyset.orderBy} LIMIT ${keyset.limit}`,
      params,
    );
  }

  /** Rows recorded after `afterSeq`, oldest first (a follower's poll). */
  async after(filter: AuditFilter, afterSeq: bigint, limit: number): Promise<AuditRow[]> {
    const { where, params } = conditions(filter);
    params.push(afterSeq.toString());
    where.push(`e.seq > $${params.length}`);
    params.push(limit);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM audit_events e WHERE ${where.join(' AND ')} ORDER BY e.seq ASC LIMIT $${params.length}`, params);
  }
}

function conditions(filter: AuditFilter): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.developerId) add((p) => `developer_id = ${p}`, filter.developerId);
  if (filter.actor) add((p) => `lower(actor_label) = lower(${p})`, filter.actor);
  if (filter.action) add((p) => `action = ${p}`, filter.action);
  if (filter.targetType) add((p) => `target_type = ${p}`, filter.targetType);
  if (filter.targetId) add((p) => `target_id = ${p}`, filter.targetId);
  if (filter.from) add((p) => `occurred_at >= ${p}`, filter.from.toISOString());
  if (filter.to) add((p) => `occurred_at <= ${p}`, filter.to.toISOString());
  return { where, params };
}
