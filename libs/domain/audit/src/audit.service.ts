import { Injectable } from '@nestjs/common';
import { Clock, type Page, type PageRequest, timeOrderedUuid } from '@gateway/platform';
import type { DeveloperChangeRecorder } from '@gateway/domain/developers';
import type { EntityManager } from 'typeorm';
import type { AuditActor, AuditEntry, AuditEvent, AuditFilter } from './audit-event';
import { auditOrder, AuditRepository, type AuditRow } from './audit.repository';

/** How many rows an export reads per query: memory stays flat whatever the log's size. */
const EXPORT_PAGE_SIZE = 500;

/**
 * The audit log: who did what to which account, when and from where. Every capability records
 * through `record`, inside the transaction of the action itself, so an action and its row commit
 * together or not at all. Rows are never changed (the table refuses UPDATE and DELETE).
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly events: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Writes one row with the caller's manager (the action's own transaction). */
  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    await this.events.insert(manager, {
      id: timeOrderedUuid(),
      occurredAt: this.clock.now(),
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      actorLabel: entry.actor.label,
      developerId: entry.developerId ?? null,
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      ip: entry.actor.ip ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
  }

  /**
   * What the developers capability (below this one) calls to record a change to an account, in
   * the change's transaction, as `actor`.
   */
  developerRecorder(actor: AuditActor): DeveloperChangeRecorder {
    return (manager, change) =>
      this.record(manager, {
        actor,
        action: change.action,
        developerId: change.developerId,
        target: { type: 'developer', id: change.developerId },
        before: change.before,
        after: change.after,
      });
  }

  /** One page, newest first. @throws validation_error (a cursor this list did not issue) */
  async list(filter: AuditFilter, request: PageRequest): Promise<Page<AuditEvent>> {
    const page = auditOrder.page(request);
    const rows = await this.events.page(filter, page);
    return page.toPage(rows, toEvent, (row) => ({ seq: BigInt(row.seq) }));
  }

  /** Every row matching `filter`, newest first, read page by page (for CSV exports). */
  async *stream(filter: AuditFilter): AsyncGenerator<AuditEvent> {
    let cursor: string | undefined;
    do {
      const page = await this.list(filter, { limit: EXPORT_PAGE_SIZE, cursor });
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Rows recorded after `afterSeq`, oldest first (what `audit tail --follow` polls for). */
  async after(filter: AuditFilter, afterSeq: bigint, limit = EXPORT_PAGE_SIZE): Promise<AuditEvent[]> {
    return (await this.events.after(filter, afterSeq, limit)).map(toEvent);
  }
}

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    seq: BigInt(row.seq),
    occurredAt: row.occurred_at,
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    developerId: row.developer_id,
    action: row.action,
    target: row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null,
    ip: row.ip,
    before: row.before,
    after: row.after,
  };
}
