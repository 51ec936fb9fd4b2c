import { Inject, Injectable } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, inTransaction, validationError } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { DispatcherWake } from './dispatcher-wake';
import { EventsService } from './events.service';
import { type ReplayCursor, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import type { WebhookEndpointView } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { toWebhookResponse } from './webhook.mapper';
import { WebhooksService } from './webhooks.service';

/** Failed deliveries queued per transaction of a replay: a bounded statement, and a short lock on each batch. */
export const REPLAY_BATCH = 500;

/** An endpoint the scan disabled, as its owners are told. */
export interface DisabledEndpoint {
  developerId: string;
  mode: Mode;
  /** Public id (`whk_…`). */
  reference: string;
  /** The URL's host only: the path or query may carry the merchant's own token. */
  urlHost: string;
  failedDeliveries: number;
  failingSince: Date | null;
  disabledAt: Date;
  /** The `webhook_endpoint.disabled` event emitted with it. */
  eventId: string;
}

export interface ReplayResult {
  /** The endpoint's public id (`whk_…`). */
  reference: string;
  since: Date;
  queued: number;
}

/**
 * Endpoints that heal: disabled after a long run of failures, enabled again by their owner, and
 * their failed deliveries replayed (docs/webhooks.md, "Endpoint health").
 *
 * Locks: an attempt's record (WebhookDispatcher) locks its delivery, then writes its endpoint's
 * row last. So does every other transaction touching both — a replay's batches, a deletion —
 * except the disabling, which writes the endpoint first and then skips (never waits for) the
 * deliveries an attempt holds. No two of them can wait for each other in a cycle.
 */
@Injectable()
export class WebhookRecoveryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksService,
    private readonly events: EventsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * In the caller's transaction (which also tells the owners): disables the enabled endpoints
   * whose run reached WEBHOOK_DISABLE_AFTER_FAILURES failed deliveries and began at least
   * WEBHOOK_DISABLE_AFTER_DAYS ago, at most `limit`; fails their pending deliveries (a replay
   * after re-enabling sends them again); emits `webhook_endpoint.disabled` for each, which the
   * account's other enabled endpoints subscribed to it receive. The move is a conditional UPDATE
   * that re-checks the rule: of concurrent scans the first disables, the others wait for it and
   * then find nothing to do, so each endpoint is disabled, announced and mailed once.
   */
  async disableFailing(m: EntityManager, limit: number): Promise<DisabledEndpoint[]> {
    const { disableAfterFailures, disableAfterMs } = this.config.webhooks;
    if (disableAfterFailures === 0) return [];
    const now = this.clock.now();
    const rule = { failures: disableAfterFailures, startedBy: new Date(now.getTime() - disableAfterMs) };
    const disabledIds: string[] = [];
    for (const id of await this.endpoints.findFailing(m, rule, limit)) {
      if (!(await this.endpoints.disable(m, id, rule, now))) continue;
      await this.deliveries.failPendingOfDisabledEndpoint(m, id, now);
      disabledIds.push(id);
    }
    const views = await this.webhooks.viewsOf(await this.endpoints.findByIds(m, disabledIds), m);
    const disabled: DisabledEndpoint[] = [];
    for (const view of views) {
      const { endpoint } = view;
      const data = { ...toWebhookResponse(view), webhook_id: endpoint.reference };
      const eventId = await this.events.emit(m, { developerId: endpoint.developerId, mode: endpoint.mode }, 'webhook_endpoint.disabled', data);
      disabled.push({
        developerId: endpoint.developerId,
        mode: endpoint.mode,
        reference: endpoint.reference,
        urlHost: new URL(endpoint.url).host,
        failedDeliveries: endpoint.consecutiveFailedDeliveries,
        failingSince: endpoint.failingSince,
        disabledAt: now,
        eventId,
      });
    }
    return disabled;
  }

  /**
   * Enables a disabled endpoint: new events fan out to it again, and its run starts afresh.
   * @throws webhook_not_found, invalid_state (it is not disabled)
   */
  async enable(ctx: DeveloperContext, reference: string): Promise<WebhookEndpointView> {
    const endpoint = await this.webhooks.get(ctx, reference);
    const enabled = await inTransaction(this.dataSource, (m) => this.endpoints.enable(m, endpoint.id, this.clock.now()));
    if (!enabled) throw new DomainError('invalid_state', 'The webhook endpoint is not disabled.');
    return this.webhooks.view(ctx, reference);
  }

  /**
   * Queues one new attempt (same event id, signed afresh when sent) of every delivery to the
   * endpoint created at or after `since` that is `failed` now, in batches of REPLAY_BATCH, each
   * batch one transaction. A delivery already queued by a concurrent replay is no longer
   * `failed`, so it is queued once. Returns how many this call queued.
   * @throws validation_error (`since` in the future or before the replay window), webhook_not_found,
   *   invalid_state (the endpoint is disabled)
   */
  async replay(ctx: DeveloperContext, reference: string, since: Date): Promise<ReplayResult> {
    const now = this.clock.now();
    const windowDays = this.config.webhooks.replayWindowDays;
    if (since.getTime() > now.getTime()) throw validationError('since', 'since must be in the past');
    if (since.getTime() < now.getTime() - windowDays * 86_400_000) throw validationError('since', `since must be within the last ${windowDays} days`);
    const endpoint = await this.webhooks.get(ctx, reference);
    const refused = new DomainError('invalid_state', 'The webhook endpoint is disabled: enable it, then replay its failed deliveries.');
    if (endpoint.status !== 'enabled') throw refused;
    let queued = 0;
    let after: ReplayCursor | null = null;
    for (;;) {
      const batch: ReplayCursor[] | null = await inTransaction(this.dataSource, async (m) => {
        const rows = await this.deliveries.lockFailedForReplay(m, endpoint.id, { since, until: now }, after, REPLAY_BATCH);
        // Held until the batch commits: a disabling scan waits for it, and a replay stops at a disabled endpoint.
        if (!(await this.endpoints.lockEnabledShared(m, endpoint.id))) return null;
        const replayed = await this.deliveries.queueReplays(
          m,
          rows.map((row) => row.id),
          now,
        );
        if (replayed) DispatcherWake.for(this.dataSource).afterCommit(m);
        return rows;
      });
      if (batch === null) {
        if (queued === 0) throw refused;
        break;
      }
      queued += batch.length;
      if (batch.length < REPLAY_BATCH) break;
      after = batch[batch.length - 1];
    }
    return { reference: endpoint.reference, since, queued };
  }
}
