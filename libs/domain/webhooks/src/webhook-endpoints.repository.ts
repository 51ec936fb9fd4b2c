import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import { type EntityManager, IsNull, Repository } from 'typeorm';
import { WebhookEndpointEntity } from './webhook.entities';

/** Merchants' webhook endpoints, always scoped by developer and mode. A deleted endpoint keeps its row. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>) {}

  insert(endpoint: Omit<WebhookEndpointEntity, 'id'>): Promise<WebhookEndpointEntity> {
    return this.endpoints.save(endpoint);
  }

  /** The endpoint, unless it was deleted. */
  findActive(ctx: DeveloperContext, reference: string): Promise<WebhookEndpointEntity | null> {
    return this.endpoints.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode, deletedAt: IsNull() });
  }

  /** By internal id (a delivery's or a log's), deleted or not: the caller decides what a deleted one means. */
  findById(ctx: DeveloperContext, id: string): Promise<WebhookEndpointEntity | null> {
    return this.endpoints.findOneBy({ id, developerId: ctx.developerId, mode: ctx.mode });
  }

  /** Endpoints not deleted, newest first. @throws validation_error (a cursor this list did not issue) */
  async list(ctx: DeveloperContext, filter: { limit: number; cursor?: string }): Promise<Page<WebhookEndpointEntity>> {
    const page = newestFirst.page(filter);
    const query = this.endpoints.createQueryBuilder('w').where('w.developer_id = :developerId AND w.mode = :mode AND w.deleted_at IS NULL', ctx);
    return page.toPage(await page.applyTo(query, 'w').getMany(), (w) => w);
  }

  /** Writes the changes made on a loaded endpoint (URL, events, version, secrets). */
  save(endpoint: WebhookEndpointEntity): Promise<WebhookEndpointEntity> {
    return this.endpoints.save(endpoint);
  }

  async markDeleted(m: EntityManager, id: string, at: Date): Promise<void> {
    await m.update(WebhookEndpointEntity, { id }, { deletedAt: at });
  }
}
