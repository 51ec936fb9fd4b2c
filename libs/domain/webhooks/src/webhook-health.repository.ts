import { Injectable } from '@nestjs/common';
import type { Mode, WebhookAttemptError } from '@gateway/contracts';
import { defineCursor, defineKeyset, type Page, type PageRequest } from '@gateway/platform';
import { DataSource } from 'typeorm';

/** An endpoint with failed attempts in the window, across every account and mode. */
export interface FailingEndpoint {
  endpointId: string;
  /** Public id (`whk_…`). */
  reference: string;
  developerId: string;
  mode: Mode;
  url: string;
  failedAttempts: number;
  lastFailureAt: Date;
  lastError: WebhookAttemptError | null;
  lastStatusCode: number | null;
  /** Failed attempts since the endpoint's last successful one (all of them if it never succeeded); 0 once it recovered. */
  consecutiveFailures: number;
}

interface FailingEndpointRow {
  id: string;
  reference: string;
  developer_id: string;
  mode: Mode;
  url: string;
  failed: number;
  last_failure_at: Date;
  cursor_at: string;
  last_error: WebhookAttemptError | null;
  last_status_code: number | null;
  consecutive: number;
}

/** Ordered by the latest failure, newest first (microsecond text in the cursor, as PostgreSQL stores it). */
const failingOrder = defineKeyset(defineCursor({ lastFailureAt: 'timestamp', id: 'uuid' }), { lastFailureAt: 'last_failure_at', id: 'id' });

/**
 * Platform-wide reads of delivery health for staff: unlike the account-scoped repositories this
 * crosses tenants on purpose, and only the platform overview permission reaches it.
 */
@Injectable()
export class WebhookHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** @throws validation_error (a cursor this list did not issue) */
  async failingSince(since: Date, request: PageRequest): Promise<Page<FailingEndpoint>> {
    const page = failingOrder.page(request);
    const params: unknown[] = [since.toISOString()];
    const keyset = page.sql((value) => {
      params.push(value);
      return `$${params.length}`;
    }, 'f');
    // The window's failures come from the partial index on failed attempts (webhook_delivery_logs_failures);
    // each failing endpoint's last failure and last success are probes of the per-endpoint listing index.
    const rows: FailingEndpointRow[] = await this.dataSource.query(
      `WITH failures AS (
         SELECT l.endpoint_id, count(*)::int AS failed, max(l.created_at) AS last_failure_at
           FROM webhook_delivery_logs l
          WHERE l.success = false AND l.created_at >= $1
          GROUP BY l.endpoint_id
       ), f AS (
         SELECT e.id, e.reference, e.developer_id, e.mode, e.url, failures.failed, failures.last_failure_at
           FROM failures JOIN webhook_endpoints e ON e.id = failures.endpoint_id AND e.deleted_at IS NULL
       )
       SELECT f.id, f.reference, f.developer_id, f.mode, f.url, f.failed, f.last_failure_at,
              to_char(f.last_failure_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
              last_failure.error AS last_error, last_failure.status_code AS last_status_code,
              (SELECT count(*)::int FROM webhook_delivery_logs c
                WHERE c.endpoint_id = f.id AND c.success = false
                  AND c.created_at > COALESCE(
                    (SELECT s.created_at FROM webhook_delivery_logs s WHERE s.endpoint_id = f.id AND s.success ORDER BY s.created_at DESC LIMIT 1),
                    '-infinity')) AS consecutive
         FROM f
         CROSS JOIN LATERAL (
           SELECT x.error, x.status_code FROM webhook_delivery_logs x
            WHERE x.endpoint_id = f.id AND x.success = false
            ORDER BY x.created_at DESC, x.id DESC LIMIT 1
         ) last_failure
        ${keyset.where ? `WHERE ${keyset.where}` : ''}
        ORDER BY ${keyset.orderBy}
        LIMIT ${keyset.limit}`,
      params,
    );
    return page.toPage(
      rows,
      (row): FailingEndpoint => ({
        endpointId: row.id,
        reference: row.reference,
        developerId: row.developer_id,
        mode: row.mode,
        url: row.url,
        failedAttempts: row.failed,
        lastFailureAt: row.last_failure_at,
        lastError: row.last_error,
        lastStatusCode: row.last_status_code,
        consecutiveFailures: row.consecutive,
      }),
      (row) => ({ lastFailureAt: row.cursor_at, id: row.id }),
    );
  }
}
