import { StreamableFile } from '@nestjs/common';
import type { AuditEventResponse } from '@gateway/contracts';
import type { AuditEvent } from '@gateway/domain/audit';
import { stringify } from 'csv-stringify';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { ListResponse } from '../../http/list-response';

/** The CSV columns, in order: the JSON fields flattened; before and after as JSON text. */
export const AUDIT_CSV_COLUMNS = ['id', 'occurred_at', 'actor_type', 'actor_id', 'actor_label', 'developer_id', 'action', 'target_type', 'target_id', 'ip', 'before', 'after'] as const;

/** `?format=csv` or `Accept: text/csv` (JSON stays the default). */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format) return format === 'csv';
  return (request.headers.accept ?? '').toLowerCase().includes('text/csv');
}

export function toAuditEventResponse(event: AuditEvent): AuditEventResponse {
  return {
    id: event.id,
    occurred_at: event.occurredAt.toISOString(),
    actor: event.actor,
    developer_id: event.developerId,
    action: event.action,
    target: event.target,
    ip: event.ip,
    before: event.before,
    after: event.after,
  };
}

/**
 * Streams every row of `events` as CSV: the rows are read page by page from the database as the
 * client consumes them, so an export never holds the log in memory.
 *
 * The route's contract types it as its JSON page; the framework sends a StreamableFile as the raw
 * stream instead (no envelope), hence the one cast.
 */
export function auditCsv(events: AsyncIterable<AuditEvent>, filename: string): ListResponse<AuditEventResponse> {
  const rows = Readable.from(
    (async function* () {
      for await (const event of events) {
        yield [
          event.id,
          event.occurredAt.toISOString(),
          event.actor.type,
          event.actor.id ?? '',
          event.actor.label ?? '',
          event.developerId ?? '',
          event.action,
          event.target?.type ?? '',
          event.target?.id ?? '',
          event.ip ?? '',
          event.before ? JSON.stringify(event.before) : '',
          event.after ? JSON.stringify(event.after) : '',
        ];
      }
    })(),
  );
  const csv = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS] });
  pipeline(rows, csv, () => undefined);
  return new StreamableFile(csv, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${filename}"` }) as unknown as ListResponse<AuditEventResponse>;
}
