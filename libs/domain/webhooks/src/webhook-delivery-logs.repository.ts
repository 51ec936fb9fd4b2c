import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';

/** One row per attempt to send a delivery (automatic, manual or test); never changed once written. */
@Injectable()
export class WebhookDeliveryLogsRepository {
  constructor(@InjectRepository(WebhookDeliveryLogEntity) private readonly logs: Repository<WebhookDeliveryLogEntity>) {}

  /**
   * The delivery's previous highest attempt + 1. Only under the delivery's row lock (taken by the
   * caller's transaction) is it unique; an index enforces that it is.
   */
  async nextAttemptNumber(m: EntityManager, deliveryId: string): Promise<number> {
    const [{ attempt }] = (await m.query(`SELECT COALESCE(MAX(attempt), 0) + 1 AS attempt FROM webhook_delivery_logs WHERE delivery_id = $1`, [deliveryId])) as Array<{
      attempt: number;
    }>;
    return attempt;
  }

  insert(m: EntityManager, log: Omit<WebhookDeliveryLogEntity, 'id'>): Promise<WebhookDeliveryLogEntity> {
    return m.getRepository(WebhookDeliveryLogEntity).save(log);
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
