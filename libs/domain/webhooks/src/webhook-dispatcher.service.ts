import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, Encryptor, inTransaction } from '@gateway/platform';
import { WEBHOOK_DELIVERY_TASK } from '@gateway/domain/events';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { signatureHeader } from './signature';
import { type AttemptTrigger, type WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { webhookBody } from './webhook-payload';
import { type AttemptOutcome, postWebhook } from './webhook-sender';

/** How far past its due time a pending delivery may sit before the sweeper re-enqueues it. */
const SWEEP_GRACE_MS = 2000;

/**
 * Sends deliveries and records every attempt. Crash safety: an attempt first takes a lease on its
 * delivery; if the worker dies after sending and before recording, the lease expires and the
 * sweeper enqueues the delivery again, so the event arrives at least once (same event id).
 */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly encryptor: Encryptor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get leaseMs(): number {
    return this.config.webhooks.timeoutMs + 5000;
  }

  /** The queued job's work: one scheduled attempt, if the delivery is still due and not in flight. */
  async runScheduledAttempt(deliveryId: string): Promise<void> {
    const now = this.clock.now();
    const result: unknown = await this.dataSource.query(
      `UPDATE webhook_deliveries SET lease_until = $2
        WHERE id = $1 AND status = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $4)
        RETURNING id, endpoint_id AS "endpointId", event_id AS "eventId", developer_id AS "developerId", mode, attempts`,
      [deliveryId, new Date(now.getTime() + this.leaseMs), new Date(now.getTime() + 1000), now],
    );
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const claimed = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as WebhookDeliveryEntity[];
    const delivery = claimed[0];
    if (!delivery) return;
    const endpoint = await this.dataSource.getRepository(WebhookEndpointEntity).findOneBy({ id: delivery.endpointId });
    if (!endpoint || endpoint.deletedAt) {
      await this.dataSource.query(`UPDATE webhook_deliveries SET status = 'failed', completed_at = $2, lease_until = NULL WHERE id = $1`, [delivery.id, now]);
      return;
    }
    const outcome = await this.send(endpoint, delivery.eventId);
    await inTransaction(this.dataSource, async (m) => {
      await this.recordLog(m, delivery, endpoint, outcome, delivery.attempts + 1, 'automatic');
      const attempts = delivery.attempts + 1;
      const finishedAt = this.clock.now();
      if (outcome.success) {
        await m.query(`UPDATE webhook_deliveries SET status = 'delivered', attempts = $2, completed_at = $3, lease_until = NULL WHERE id = $1`, [delivery.id, attempts, finishedAt]);
        return;
      }
      const delay = this.config.webhooks.retryScheduleMs[attempts - 1];
      if (delay === undefined) {
        await m.query(`UPDATE webhook_deliveries SET status = 'failed', attempts = $2, completed_at = $3, lease_until = NULL WHERE id = $1`, [delivery.id, attempts, finishedAt]);
        return;
      }
      const next = new Date(finishedAt.getTime() + delay);
      await m.query(`UPDATE webhook_deliveries SET attempts = $2, next_attempt_at = $3, lease_until = NULL WHERE id = $1`, [delivery.id, attempts, next]);
      await enqueueDelivery(m, delivery.id, next);
    });
  }

  /** Re-enqueues pending deliveries that are overdue and not in flight (lost jobs, crashed workers). */
  async sweep(limit = 500): Promise<number> {
    const now = this.clock.now();
    const rows: Array<{ id: string; next_attempt_at: Date }> = await this.dataSource.query(
      `SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $2)
        ORDER BY next_attempt_at LIMIT $3`,
      [new Date(now.getTime() - SWEEP_GRACE_MS), now, limit],
    );
    for (const row of rows) await enqueueDelivery(this.dataSource.manager, row.id, now);
    return rows.length;
  }

  /**
   * One immediate attempt outside the schedule (manual retry, test delivery); the delivery becomes
   * `delivered` on success, its schedule is otherwise left as it was.
   */
  async attemptNow(delivery: Pick<WebhookDeliveryEntity, 'id' | 'eventId' | 'developerId' | 'mode'>, endpoint: WebhookEndpointEntity, trigger: AttemptTrigger): Promise<WebhookDeliveryLogEntity> {
    const outcome = await this.send(endpoint, delivery.eventId);
    return inTransaction(this.dataSource, async (m) => {
      const [{ count }] = (await m.query(`SELECT count(*)::int AS count FROM webhook_delivery_logs WHERE delivery_id = $1`, [delivery.id])) as Array<{ count: number }>;
      const log = await this.recordLog(m, delivery, endpoint, outcome, count + 1, trigger);
      if (outcome.success) {
        await m.query(`UPDATE webhook_deliveries SET status = 'delivered', completed_at = $2 WHERE id = $1 AND status <> 'delivered'`, [delivery.id, this.clock.now()]);
      } else if (trigger === 'test') {
        await m.query(`UPDATE webhook_deliveries SET status = 'failed', completed_at = $2 WHERE id = $1 AND status = 'pending'`, [delivery.id, this.clock.now()]);
      }
      return log;
    });
  }

  /** Builds the body for the endpoint's version and signs it afresh with the current time. */
  private async send(endpoint: WebhookEndpointEntity, eventId: string): Promise<AttemptOutcome> {
    const [event] = (await this.dataSource.query(`SELECT id, name, mode, data, created_at AS "createdAt" FROM events WHERE id = $1`, [eventId])) as Array<{
      id: string;
      name: string;
      mode: 'test' | 'live';
      data: Record<string, unknown>;
      createdAt: Date;
    }>;
    const body = webhookBody(event, endpoint.webhookVersion);
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = [this.encryptor.decrypt(endpoint.secretCiphertext, endpoint.reference)];
    if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(this.encryptor.decrypt(endpoint.previousSecretCiphertext, endpoint.reference));
    }
    const headers = {
      'x-gateway-signature': signatureHeader(secrets, timestamp, body),
      'x-gateway-timestamp': String(timestamp),
      'x-gateway-event-id': event.id,
      'x-gateway-event': event.name,
    };
    return postWebhook(endpoint.url, body, headers, { mode: endpoint.mode, trustedHosts: this.config.webhooks.trustedHosts }, this.config.webhooks.timeoutMs);
  }

  private async recordLog(
    m: EntityManager,
    delivery: Pick<WebhookDeliveryEntity, 'id' | 'eventId'>,
    endpoint: WebhookEndpointEntity,
    outcome: AttemptOutcome,
    attempt: number,
    trigger: AttemptTrigger,
  ): Promise<WebhookDeliveryLogEntity> {
    const [event] = (await m.query(`SELECT name FROM events WHERE id = $1`, [delivery.eventId])) as Array<{ name: string }>;
    return m.getRepository(WebhookDeliveryLogEntity).save({
      reference: `whl_${randomBytes(12).toString('hex')}`,
      deliveryId: delivery.id,
      developerId: endpoint.developerId,
      mode: endpoint.mode,
      endpointId: endpoint.id,
      eventId: delivery.eventId,
      eventName: event.name,
      attempt,
      trigger,
      success: outcome.success,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseBody: outcome.responseBody,
      createdAt: this.clock.now(),
    });
  }
}

/** Queues an attempt in the caller's transaction (graphile-worker, LISTEN/NOTIFY wakes a worker). */
export async function enqueueDelivery(m: EntityManager, deliveryId: string, runAt: Date): Promise<void> {
  await m.query(`SELECT graphile_worker.add_job($1, json_build_object('delivery_id', $2::text), run_at => $3, job_key => 'webhook_delivery:' || $2, max_attempts => 5)`, [
    WEBHOOK_DELIVERY_TASK,
    deliveryId,
    runAt,
  ]);
}
