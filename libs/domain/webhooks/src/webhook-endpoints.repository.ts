import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, fromStatesOf, newestFirst, type Page, targetOf } from '@gateway/platform';
import { type EntityManager, In, IsNull, Repository } from 'typeorm';
import { ENDPOINT_TRANSITIONS } from './endpoint-status';
import { WebhookEndpointEntity } from './webhook.entities';

/** A new endpoint: enabled, with no health yet. */
export type NewEndpointRow = Omit<
  WebhookEndpointEntity,
  'id' | 'status' | 'disabledAt' | 'disabledReason' | 'lastSuccessAt' | 'lastFailureAt' | 'lastFailureError' | 'lastFailureStatusCode' | 'consecutiveFailedDeliveries' | 'failingSince'
>;

/** What the owner's changes may write: never the status or the health, which have their own statements. */
export type EndpointSettings = Pick<WebhookEndpointEntity, 'url' | 'events' | 'webhookVersion' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt' | 'updatedAt'>;

/** When an endpoint's run disables it: this many failed deliveries, the first failure at or before `startedBy`. */
export interface FailingRule {
  failures: number;
  startedBy: Date;
}

/** Merchants' webhook endpoints, always scoped by developer and mode. A deleted endpoint keeps its row. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>) {}

  insert(endpoint: NewEndpointRow): Promise<WebhookEndpointEntity> {
    return this.endpoints.save({
      ...endpoint,
      status: 'enabled',
      disabledAt: null,
      disabledReason: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureError: null,
      lastFailureStatusCode: null,
      consecutiveFailedDeliveries: 0,
      failingSince: null,
    });
  }

  /** The endpoint, unless it was deleted. */
  findActive(ctx: DeveloperContext, reference: string, m: EntityManager = this.endpoints.manager): Promise<WebhookEndpointEntity | null> {
    return m.findOneBy(WebhookEndpointEntity, { reference, developerId: ctx.developerId, mode: ctx.mode, deletedAt: IsNull() });
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

  /**
   * Writes the owner's changes (URL, events, version, secrets) and nothing else: a loaded entity
   * saved whole would write back the status and health it was loaded with, undoing a disabling
   * or an attempt's count that committed meanwhile.
   */
  async saveSettings(id: string, settings: EndpointSettings): Promise<void> {
    await this.endpoints.update({ id }, settings);
  }

  async markDeleted(m: EntityManager, id: string, at: Date): Promise<void> {
    await m.update(WebhookEndpointEntity, { id }, { deletedAt: at });
  }

  /**
   * Enabled endpoints (not deleted) whose run of failed deliveries reached `failures` and began at
   * or before `startedBy`, oldest run first, at most `limit`. Not locked: `disable` decides, and
   * re-checks the rule. One fixed order, so concurrent scans take the endpoints' rows in the same
   * order and never wait for each other in a cycle. Served by the partial index webhook_endpoints_failing.
   */
  async findFailing(m: EntityManager, rule: FailingRule, limit: number): Promise<string[]> {
    const rows = (await m.query(
      `SELECT id FROM webhook_endpoints
        WHERE status = 'enabled' AND deleted_at IS NULL AND failing_since IS NOT NULL
          AND failing_since <= $1 AND consecutive_failed_deliveries >= $2
        ORDER BY failing_since, id LIMIT $3`,
      [rule.startedBy, rule.failures, limit],
    )) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Loaded in the caller's transaction (after a change it made). */
  findByIds(m: EntityManager, ids: string[]): Promise<WebhookEndpointEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : m.findBy(WebhookEndpointEntity, { id: In(ids) });
  }

  /**
   * Locks the endpoint in share mode for the caller's transaction if it is enabled and not
   * deleted (a transaction disabling it is waited for, then seen; one that would disable it
   * waits for this one); false otherwise.
   */
  async lockEnabledShared(m: EntityManager, id: string): Promise<boolean> {
    const rows = (await m.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 AND status = 'enabled' AND deleted_at IS NULL FOR SHARE`, [id])) as unknown[];
    return rows.length > 0;
  }

  /**
   * The scan's move, while the rule still holds (a success meanwhile ended the run): true when
   * this statement disabled it. Of two scans, the second waits for the first's commit, then finds
   * it disabled.
   */
  async disable(m: EntityManager, id: string, rule: FailingRule, at: Date): Promise<boolean> {
    const [rows] = (await m.query(
      `UPDATE webhook_endpoints SET status = $2, disabled_at = $3, disabled_reason = 'consecutive_failures', updated_at = $3
        WHERE id = $1 AND status = ANY ($4::text[]) AND deleted_at IS NULL AND failing_since <= $5 AND consecutive_failed_deliveries >= $6 RETURNING id`,
      [id, targetOf(ENDPOINT_TRANSITIONS, 'disable'), at, fromStatesOf(ENDPOINT_TRANSITIONS, 'disable'), rule.startedBy, rule.failures],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  /** The owner's move, which also starts a fresh run: true when this statement enabled it. */
  async enable(m: EntityManager, id: string, at: Date): Promise<boolean> {
    const [rows] = (await m.query(
      `UPDATE webhook_endpoints SET status = $2, disabled_at = NULL, disabled_reason = NULL, consecutive_failed_deliveries = 0, failing_since = NULL, updated_at = $3
        WHERE id = $1 AND status = ANY ($4::text[]) AND deleted_at IS NULL RETURNING id`,
      [id, targetOf(ENDPOINT_TRANSITIONS, 'enable'), at, fromStatesOf(ENDPOINT_TRANSITIONS, 'enable')],
    )) as [unknown[], number];
    return rows.length > 0;
  }
}
