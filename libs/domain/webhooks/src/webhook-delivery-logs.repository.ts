import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import type { Repository } from 'typeorm';
import { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';

/** A log as the dispatcher hands it over: its number is taken by the statement that writes it. */
export type NewDeliveryLog = Omit<WebhookDeliveryLogEntity, 'id' | 'attempt'>;

/**
 * The CTE `logs` of the statement that records a batch of attempts (attempt-records.statement.ts):
 * writes the logs ($1–$15: their columns as arrays, in the batch's order) and returns each one's id
 * and attempt number: its delivery's highest number so far, plus its place among the batch's
 * attempts of that delivery. Only under the deliveries' row locks, taken by an earlier statement of
 * the caller's transaction (so this one sees every log committed before them), is that number
 * unique; an index enforces that it is.
 */
export const NUMBERED_LOGS_CTE = `logs AS (
    INSERT INTO webhook_delivery_logs (id, reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code,
      latency_ms, error, response_body, created_at)
    SELECT n.id, n.reference, n.delivery_id, n.developer_id, n.mode, n.endpoint_id, n.event_id, n.event_name,
           coalesce((SELECT max(l.attempt) FROM webhook_delivery_logs l WHERE l.delivery_id = n.delivery_id), 0)
             + row_number() OVER (PARTITION BY n.delivery_id ORDER BY n.position),
           n.trigger, n.success, n.status_code, n.latency_ms, n.error, n.response_body, n.created_at
      FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::int[], $12::int[],
                  $13::text[], $14::text[], $15::timestamptz[])
           WITH ORDINALITY AS n (id, reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, trigger, success, status_code, latency_ms,
                                 error, response_body, created_at, position)
    RETURNING id, attempt)`;

/** NUMBERED_LOGS_CTE's parameters. */
export function numberedLogsParameters(logs: Array<NewDeliveryLog & { id: string }>): unknown[] {
  const column = <K extends keyof NewDeliveryLog | 'id'>(key: K) => logs.map((log) => log[key]);
  return [
    column('id'),
    column('reference'),
    column('deliveryId'),
    column('developerId'),
    column('mode'),
    column('endpointId'),
    column('eventId'),
    column('eventName'),
    column('trigger'),
    column('success'),
    column('statusCode'),
    column('latencyMs'),
    column('error'),
    column('responseBody'),
    column('createdAt'),
  ];
}

/** One row per attempt to send a delivery (automatic, manual or test); never changed once written. */
@Injectable()
export class WebhookDeliveryLogsRepository {
  constructor(@InjectRepository(WebhookDeliveryLogEntity) private readonly logs: Repository<WebhookDeliveryLogEntity>) {}

  /** Every attempt of these deliveries, in attempt order (index webhook_delivery_logs_attempt). */
  listForDeliveries(ctx: DeveloperContext, deliveryIds: string[]): Promise<WebhookDeliveryLogEntity[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.logs
      .createQueryBuilder('l')
      .where('l.delivery_id = ANY (:deliveryIds) AND l.developer_id = :developerId AND l.mode = :mode', { deliveryIds, ...ctx })
      .orderBy('l.delivery_id')
      .addOrderBy('l.attempt')
      .getMany();
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<WebhookDeliveryLogEntity | null> {
    return this.logs.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** Every attempt to the endpoint, newest first. @throws validation_error (a cursor this list did not issue) */
  async listForEndpoint(ctx: DeveloperContext, endpointId: string, filter: { limit: number; cursor?: string }): Promise<Page<WebhookDeliveryLogEntity>> {
    const page = newestFirst.page(filter);
    const query = this.logs.createQueryBuilder('l').where('l.endpoint_id = :endpointId AND l.developer_id = :developerId AND l.mode = :mode', { endpointId, ...ctx });
    return page.toPage(await page.applyTo(query, 'l').getMany(), (log) => log);
  }

  /**
   * The account's failed attempts (any trigger) to its endpoints that still exist, newest first.
   * @throws validation_error (a cursor this list did not issue)
   */
  async listFailedForAccount(ctx: DeveloperContext, filter: { limit: number; cursor?: string }): Promise<Page<WebhookDeliveryLogEntity>> {
    const page = newestFirst.page(filter);
    const query = this.logs
      .createQueryBuilder('l')
      // Joined to the endpoints to leave out deleted ones; the account's failures are read newest
      // first from webhook_delivery_logs_failed_listing (the tenant's failed attempts only).
      .innerJoin(WebhookEndpointEntity, 'e', 'e.id = l.endpoint_id AND e.developer_id = :developerId AND e.mode = :mode AND e.deleted_at IS NULL', ctx)
      .where('l.developer_id = :developerId AND l.mode = :mode AND l.success = false', ctx);
    return page.toPage(await page.applyTo(query, 'l').getMany(), (log) => log);
  }
}
