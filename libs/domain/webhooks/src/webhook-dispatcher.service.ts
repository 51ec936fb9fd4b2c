import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, DecryptionError, DomainError, Encryptor, enqueueJob, inTransaction } from '@gateway/platform';
import { WEBHOOK_DELIVERY_TASK } from '@gateway/domain/events';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { moveDelivery } from './delivery-status';
import { signatureHeader } from './signature';
import { type AttemptTrigger, type WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { webhookBody } from './webhook-payload';
import { WebhookResolver } from './webhook-resolver';
import { type AttemptOutcome, postWebhook } from './webhook-sender';

/** How far past its due time a pending delivery may sit before the sweeper re-enqueues it. */
const SWEEP_GRACE_MS = 2000;
/** A lease outlives the attempt's own deadline by this much (time to record the outcome). */
const LEASE_MARGIN_MS = 5000;

/** A delivery whose lease this process holds, until `leaseUntil`. */
type Leased = Pick<WebhookDeliveryEntity, 'id' | 'endpointId' | 'eventId' | 'developerId' | 'mode' | 'attempts'> & { leaseUntil: Date };

/** Why an attempt could not even be sent; the message is logged for the merchant, so it names no secret. */
class PreparationError extends Error {}

/**
 * Sends deliveries and records every attempt.
 *
 * One attempt at a time per delivery: every attempt — automatic, manual retry or test — first
 * takes the delivery's lease (a conditional UPDATE), so a manual retry never runs alongside an
 * automatic attempt (it answers `conflict` instead), and two workers never send the same attempt.
 * Leases are measured on the database's clock: they coordinate processes (API and scheduler) that
 * may not share a clock, and an injected test clock must not make a live lease look expired.
 *
 * Crash safety: if the worker dies after sending and before recording, the lease expires and the
 * sweeper enqueues the delivery again, so the event arrives at least once (same event id).
 *
 * Numbering: a log's `attempt` is the delivery's previous highest + 1, read under the delivery's
 * row lock in the transaction that writes the log (unique per delivery, enforced by an index).
 * `webhook_deliveries.attempts` counts automatic attempts only: it is the retry schedule's
 * position, which manual retries do not move.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly encryptor: Encryptor,
    private readonly resolver: WebhookResolver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get leaseMs(): number {
    return this.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
  }

  /** The queued job's work: one scheduled attempt, if the delivery is still due and not in flight. */
  async runScheduledAttempt(deliveryId: string): Promise<void> {
    const delivery = await this.claim(deliveryId, `status = 'pending' AND next_attempt_at <= $3`, [new Date(this.clock.now().getTime() + 1000)]);
    if (!delivery) return;
    const endpoint = await this.dataSource.getRepository(WebhookEndpointEntity).findOneBy({ id: delivery.endpointId });
    if (!endpoint || endpoint.deletedAt) {
      await inTransaction(this.dataSource, async (m) => {
        await moveDelivery(m, delivery.id, 'fail', this.clock.now());
        await release(m, delivery);
      });
      return;
    }
    const outcome = await this.attempt(endpoint, delivery.eventId);
    await this.record(delivery, endpoint, outcome, 'automatic');
  }

  /** Re-enqueues pending deliveries that are overdue and not in flight (lost jobs, crashed workers). */
  async sweep(limit = 500): Promise<number> {
    const now = this.clock.now();
    const rows: Array<{ id: string; next_attempt_at: Date }> = await this.dataSource.query(
      `SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < clock_timestamp())
        ORDER BY next_attempt_at LIMIT $2`,
      [new Date(now.getTime() - SWEEP_GRACE_MS), limit],
    );
    for (const row of rows) await enqueueDelivery(this.dataSource.manager, row.id, now);
    return rows.length;
  }

  /**
   * One immediate attempt outside the schedule (manual retry, test delivery); the delivery becomes
   * `delivered` on success, its schedule is otherwise left as it was (a failed test delivery,
   * never scheduled, becomes `failed`).
   * @throws conflict while another attempt of this delivery is in flight
   */
  async attemptNow(delivery: Pick<WebhookDeliveryEntity, 'id'>, endpoint: WebhookEndpointEntity, trigger: Exclude<AttemptTrigger, 'automatic'>): Promise<WebhookDeliveryLogEntity> {
    const leased = await this.claim(delivery.id, 'TRUE', []);
    if (!leased) throw new DomainError('conflict', 'An attempt of this delivery is in progress; retry once it has finished (within a few seconds).');
    const outcome = await this.attempt(endpoint, leased.eventId);
    return this.record(leased, endpoint, outcome, trigger);
  }

  /**
   * Takes the delivery's lease if nobody holds it and `condition` (SQL over the delivery, with
   * parameters from $3) holds. The lease ends on a whole millisecond, so the Date read back
   * compares equal to the stored value when it is released.
   */
  private async claim(deliveryId: string, condition: string, params: unknown[]): Promise<Leased | undefined> {
    const result: unknown = await this.dataSource.query(
      `UPDATE webhook_deliveries SET lease_until = date_trunc('milliseconds', clock_timestamp()) + $2::int * interval '1 millisecond'
        WHERE id = $1 AND (lease_until IS NULL OR lease_until < clock_timestamp()) AND (${condition})
        RETURNING id, endpoint_id AS "endpointId", event_id AS "eventId", developer_id AS "developerId", mode, attempts, lease_until AS "leaseUntil"`,
      [deliveryId, this.leaseMs, ...params],
    );
    return updatedRows<Leased>(result)[0];
  }

  /**
   * Writes the attempt's log and moves the delivery, in one transaction under the delivery's row
   * lock: the attempt number is taken there, status moves are conditional, and the schedule and
   * the lease are only touched while this attempt still holds the lease.
   */
  private record(delivery: Leased, endpoint: WebhookEndpointEntity, outcome: AttemptOutcome, trigger: AttemptTrigger): Promise<WebhookDeliveryLogEntity> {
    return inTransaction(this.dataSource, async (m) => {
      const [row] = (await m.query(`SELECT attempts, lease_until AS "leaseUntil" FROM webhook_deliveries WHERE id = $1 FOR UPDATE`, [delivery.id])) as Array<{
        attempts: number;
        leaseUntil: Date | null;
      }>;
      const [{ attempt }] = (await m.query(`SELECT COALESCE(MAX(attempt), 0) + 1 AS attempt FROM webhook_delivery_logs WHERE delivery_id = $1`, [delivery.id])) as Array<{
        attempt: number;
      }>;
      const log = await this.writeLog(m, delivery, endpoint, outcome, attempt, trigger);
      const finishedAt = this.clock.now();
      const ownsLease = row.leaseUntil?.getTime() === delivery.leaseUntil.getTime();
      if (outcome.success) await moveDelivery(m, delivery.id, 'deliver', finishedAt);
      else if (trigger === 'test') await moveDelivery(m, delivery.id, 'fail', finishedAt);
      if (trigger === 'automatic' && ownsLease) await this.advanceSchedule(m, delivery.id, row.attempts + 1, outcome.success, finishedAt);
      if (ownsLease) await release(m, delivery);
      return log;
    });
  }

  /** After the automatic attempt number `automatic`: the next one is queued, or the delivery has failed. */
  private async advanceSchedule(m: EntityManager, deliveryId: string, automatic: number, succeeded: boolean, finishedAt: Date): Promise<void> {
    await m.query(`UPDATE webhook_deliveries SET attempts = $2 WHERE id = $1`, [deliveryId, automatic]);
    if (succeeded) return;
    const delay = this.config.webhooks.retryScheduleMs[automatic - 1];
    if (delay === undefined) {
      await moveDelivery(m, deliveryId, 'fail', finishedAt);
      return;
    }
    const next = new Date(finishedAt.getTime() + delay);
    const [rows] = (await m.query(`UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id = $1 AND status = 'pending' RETURNING id`, [deliveryId, next])) as [unknown[], number];
    if (rows.length) await enqueueDelivery(m, deliveryId, next);
  }

  /**
   * Prepares and sends one attempt; never throws. A failure before sending (the event is gone,
   * the secret cannot be decrypted) is a failed attempt like any other, so it is logged and the
   * schedule moves on instead of the sweeper re-running it forever.
   */
  private async attempt(endpoint: WebhookEndpointEntity, eventId: string): Promise<AttemptOutcome> {
    const started = performance.now();
    try {
      const request = await this.prepare(endpoint, eventId);
      return await postWebhook(endpoint.url, request.body, request.headers, {
        policy: { mode: endpoint.mode, trustedHosts: this.config.webhooks.trustedHosts },
        timeoutMs: this.config.webhooks.timeoutMs,
        resolve: (hostname) => this.resolver.resolve(hostname),
      });
    } catch (error) {
      const reason = error instanceof PreparationError ? error.message : 'the delivery could not be prepared (internal error)';
      if (!(error instanceof PreparationError)) this.logger.error(`delivery of ${eventId} to ${endpoint.reference} failed before sending`, error instanceof Error ? error.stack : String(error));
      return { success: false, statusCode: null, latencyMs: Math.round(performance.now() - started), error: reason, responseBody: null };
    }
  }

  /**
   * Builds the body for the endpoint's version and signs it afresh with the current time.
   * @throws PreparationError (a message safe to show: never the secret or the ciphertext)
   */
  private async prepare(endpoint: WebhookEndpointEntity, eventId: string): Promise<{ body: string; headers: Record<string, string> }> {
    const [event] = (await this.dataSource.query(`SELECT id, name, mode, data, created_at AS "createdAt" FROM events WHERE id = $1 AND developer_id = $2 AND mode = $3`, [
      eventId,
      endpoint.developerId,
      endpoint.mode,
    ])) as Array<{ id: string; name: string; mode: 'test' | 'live'; data: Record<string, unknown>; createdAt: Date }>;
    if (!event) throw new PreparationError(`event ${eventId} not found`);
    const body = webhookBody(event, endpoint.webhookVersion);
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = [this.decryptSecret(endpoint.secretCiphertext, endpoint.reference)];
    if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(this.decryptSecret(endpoint.previousSecretCiphertext, endpoint.reference));
    }
    const headers = {
      'x-gateway-signature': signatureHeader(secrets, timestamp, body),
      'x-gateway-timestamp': String(timestamp),
      'x-gateway-event-id': event.id,
      'x-gateway-event': event.name,
    };
    return { body, headers };
  }

  private decryptSecret(ciphertext: string, reference: string): string {
    try {
      return this.encryptor.decrypt(ciphertext, reference);
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      this.logger.error(`the signing secret of ${reference} cannot be decrypted: ${error.message}`);
      throw new PreparationError('the signing secret could not be decrypted (the operator must restore its encryption key)');
    }
  }

  private async writeLog(
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
      eventName: event?.name ?? 'unknown',
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

/** Ends this attempt's lease, unless it expired and another attempt holds a new one. */
async function release(m: EntityManager, delivery: Leased): Promise<void> {
  await m.query(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = $1 AND lease_until = $2`, [delivery.id, delivery.leaseUntil]);
}

/** TypeORM answers an UPDATE … RETURNING with [rows, affected count]. */
function updatedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** Queues an attempt in the caller's transaction (graphile-worker, LISTEN/NOTIFY wakes a worker). */
export async function enqueueDelivery(m: EntityManager, deliveryId: string, runAt: Date): Promise<void> {
  await enqueueJob(m, WEBHOOK_DELIVERY_TASK, { name: 'delivery_id', value: deliveryId }, { maxAttempts: 5, runAt });
}
