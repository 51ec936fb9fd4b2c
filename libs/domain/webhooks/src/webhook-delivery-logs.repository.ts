import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';

/** One row per attempt to send a delivery (automatic, manual or test); never changed once written. */
@Injectable()
export class WebhookDeliveryLogsRepository {
  constructor(@InjectRepository(WebhookDeliveryLogEntity) private readonly logs: Repository<WebhookDeliveryLogEntity>) {}

  /**
   * Each delivery's highest attempt number so far (0 without one). Only under the deliveries' row
   * locks (taken by the caller's transaction, in an earlier statement, so this one sees every log
   * committed before them) is the next number unique; an index enforces that it is.
   */
  async lastAttemptNumbers(m: EntityManager, deliveryIds: string[]): Promise<Map<string, number>> {
    const rows = (await m.query(`SELECT delivery_id AS "deliveryId", MAX(attempt) AS attempt FROM webhook_delivery_logs WHERE delivery_id = ANY ($1::uuid[]) GROUP BY delivery_id`, [
      deliveryIds,
    ])) as Array<{ deliveryId: string; attempt: number }>;
    return new Map(rows.map((row) => [row.deliveryId, row.attempt]));
  }

  /** Writes the logs in one statement; their ids are made here. */
  async insertAll(m: EntityManager, logs: Array<Omit<WebhookDeliveryLogEntity, 'id'>>): Promise<WebhookDeliveryLogEntity[]> {
    const written = logs.map((log) => ({ id: randomUUID(), ...log }));
    const column = <K extends keyof WebhookDeliveryLogEntity>(key: K) => written.map((log) => log[key]);
    await m.query(
      `INSERT INTO webhook_delivery_logs (id, reference, delivery_id, developer_id, mode, endpoint_id, event_id, event_name, attempt, trigger, success, status_code, latency_ms, error, response_body, created_at)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::uuid[], $7::text[], $8::text[], $9::int[], $10::text[], $11::boolean[], $12::int[], $13::int[], $14::text[], $15::text[], $16::timestamptz[])`,
      [
        column('id'),
        column('reference'),
        column('deliveryId'),
        column('developerId'),
        column('mode'),
        column('endpointId'),
        column('eventId'),
        column('eventName'),
        column('attempt'),
        column('trigger'),
        column('success'),
        column('statusCode'),
        column('latencyMs'),
        column('error'),
        column('responseBody'),
        column('createdAt'),
      ],
    );
    return written;
  }

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
      // Through the endpoints, so the per-endpoint listing index serves the scan.
      .innerJoin(WebhookEndpointEntity, 'e', 'e.id = l.endpoint_id AND e.developer_id = :developerId AND e.mode = :mode AND e.deleted_at IS NULL', ctx)
      .where('l.developer_id = :developerId AND l.mode = :mode AND l.success = false', ctx);
    return page.toPage(await page.applyTo(query, 'l').getMany(), (log) => log);
  }
}
