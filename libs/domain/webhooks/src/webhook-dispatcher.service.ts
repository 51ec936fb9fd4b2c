import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, DecryptionError, DomainError, Encryptor, inTransaction } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { EventsRepository } from './events.repository';
import { type DeliveryRequest, deliveryRequest } from './delivery-request';
import type { AttemptTrigger, WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { type LeasedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLogsRepository } from './webhook-delivery-logs.repository';
import { WebhookEndpointHealthRepository } from './webhook-endpoint-health.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookResolver } from './webhook-resolver';
import { urlPolicy } from './url-guard';
import { type AttemptOutcome, postWebhook } from './webhook-sender';

/** How far past its due time a pending delivery may sit before the sweeper re-enqueues it. */
const SWEEP_GRACE_MS = 2000;
/** A lease outlives the attempt's own deadline by this much (time to record the outcome). */
const LEASE_MARGIN_MS = 5000;

/** Why an attempt could not even be sent: logged for the operator (never a secret); the merchant's log says `not_sent`. */
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
 * position, which manual retries and replays do not move.
 *
 * Health: the transaction that logs an attempt also updates its endpoint's health (last success
 * or failure, the run of failed deliveries, the day's counts), last, after the delivery's lock:
 * the order (deliveries, then their endpoint) every transaction touching both keeps.
 * A replayed delivery (POST /webhooks/{id}/replay) gets exactly one attempt, logged `replay`:
 * delivered on success, `failed` again otherwise, with no schedule.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsRepository,
    private readonly logs: WebhookDeliveryLogsRepository,
    private readonly health: WebhookEndpointHealthRepository,
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
    const delivery = await this.deliveries.claimDue(deliveryId, this.leaseMs, new Date(this.clock.now().getTime() + 1000));
    if (!delivery) return;
    const endpoint = await this.endpoints.findById(delivery, delivery.endpointId);
    // A disabled endpoint gets nothing more until it is enabled (and its failed deliveries replayed).
    if (!endpoint || endpoint.deletedAt || endpoint.status === 'disabled') {
      await inTransaction(this.dataSource, async (m) => {
        await this.deliveries.move(m, delivery.id, 'fail', this.clock.now());
        await this.deliveries.release(m, delivery);
      });
      return;
    }
    const outcome = await this.attempt(endpoint, delivery.eventId);
    await this.record(delivery, endpoint, outcome, delivery.replay ? 'replay' : 'automatic');
  }

  /** Re-enqueues pending deliveries that are overdue and not in flight (lost jobs, crashed workers). */
  sweep(limit = 500): Promise<number> {
    const now = this.clock.now();
    return this.deliveries.requeueOverdue(new Date(now.getTime() - SWEEP_GRACE_MS), now, limit);
  }

  /**
   * One immediate attempt outside the schedule (manual retry, test delivery); the delivery becomes
   * `delivered` on success, its schedule is otherwise left as it was (a failed test delivery,
   * never scheduled, becomes `failed`).
   * @throws conflict while another attempt of this delivery is in flight
   */
  async attemptNow(delivery: Pick<WebhookDeliveryEntity, 'id'>, endpoint: WebhookEndpointEntity, trigger: Exclude<AttemptTrigger, 'automatic'>): Promise<WebhookDeliveryLogEntity> {
    const leased = await this.deliveries.claim(delivery.id, this.leaseMs);
    if (!leased) throw new DomainError('conflict', 'An attempt of this delivery is in progress; retry once it has finished (within a few seconds).');
    const outcome = await this.attempt(endpoint, leased.eventId);
    return this.record(leased, endpoint, outcome, trigger);
  }

  /**
   * Writes the attempt's log, moves the delivery and updates the endpoint's health, in one
   * transaction under the delivery's row lock: the attempt number is taken there, status moves
   * are conditional, and the schedule and the lease are only touched while this attempt still
   * holds the lease. The endpoint's row is written last (see WebhookEndpointHealthRepository).
   */
  private record(delivery: LeasedDelivery, endpoint: WebhookEndpointEntity, outcome: AttemptOutcome, trigger: AttemptTrigger): Promise<WebhookDeliveryLogEntity> {
    return inTransaction(this.dataSource, async (m) => {
      const row = await this.deliveries.lock(m, delivery.id);
      const attempt = await this.logs.nextAttemptNumber(m, delivery.id);
      const log = await this.writeLog(m, delivery, endpoint, outcome, attempt, trigger);
      const finishedAt = this.clock.now();
      const ownsLease = row.leaseUntil?.getTime() === delivery.leaseUntil.getTime();
      // Whether this attempt ended its delivery `failed`: one more in the endpoint's run (a test delivery never counts).
      let endedDeliveryFailed = false;
      if (outcome.success) await this.deliveries.move(m, delivery.id, 'deliver', finishedAt);
      else if (trigger === 'test') await this.deliveries.move(m, delivery.id, 'fail', finishedAt);
      else if (trigger === 'replay' && ownsLease) endedDeliveryFailed = await this.deliveries.move(m, delivery.id, 'fail', finishedAt);
      if (trigger === 'automatic' && ownsLease) endedDeliveryFailed = await this.advanceSchedule(m, delivery.id, row.attempts + 1, outcome.success, finishedAt);
      if (trigger === 'replay' && ownsLease) await this.deliveries.clearReplay(m, delivery.id);
      if (ownsLease) await this.deliveries.release(m, delivery);
      await this.health.recordAttempt(m, endpoint.id, {
        deliveryId: delivery.id,
        success: outcome.success,
        error: outcome.error,
        statusCode: outcome.statusCode,
        at: finishedAt,
        endedDeliveryFailed,
      });
      return log;
    });
  }

  /**
   * After the automatic attempt number `automatic`: the next one is queued, or the delivery has
   * failed (true when this call moved it to `failed`).
   */
  private async advanceSchedule(m: EntityManager, deliveryId: string, automatic: number, succeeded: boolean, finishedAt: Date): Promise<boolean> {
    await this.deliveries.setAttempts(m, deliveryId, automatic);
    if (succeeded) return false;
    const delay = this.config.webhooks.retryScheduleMs[automatic - 1];
    if (delay === undefined) return this.deliveries.move(m, deliveryId, 'fail', finishedAt);
    await this.deliveries.scheduleNextAttempt(m, deliveryId, new Date(finishedAt.getTime() + delay));
    return false;
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
      const outcome = await postWebhook(endpoint.url, request.body, request.headers, {
        policy: urlPolicy(endpoint.mode, this.config.webhooks),
        timeoutMs: this.config.webhooks.timeoutMs,
        resolve: (hostname) => this.resolver.resolve(hostname),
      });
      // The socket's own words, for an operator debugging a receiver; the endpoint's reference, not
      // its URL, which may carry the merchant's token.
      if (outcome.error) this.logger.debug(`attempt of ${eventId} to ${endpoint.reference} failed: ${outcome.error} (${outcome.detail ?? 'no detail'})`);
      return outcome;
    } catch (error) {
      if (error instanceof PreparationError) this.logger.warn(`delivery of ${eventId} to ${endpoint.reference} not sent: ${error.message}`);
      else this.logger.error(`delivery of ${eventId} to ${endpoint.reference} failed before sending`, error instanceof Error ? error.stack : String(error));
      return { success: false, statusCode: null, latencyMs: Math.round(performance.now() - started), error: 'not_sent', responseBody: null, detail: null };
    }
  }

  /**
   * Builds the body for the endpoint's version and signs it afresh with the current time.
   * @throws PreparationError (a message safe to log: never the secret or the ciphertext)
   */
  private async prepare(endpoint: WebhookEndpointEntity, eventId: string): Promise<DeliveryRequest> {
    const event = await this.events.find(endpoint, eventId);
    if (!event) throw new PreparationError(`event ${eventId} not found`);
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = [this.decryptSecret(endpoint.secretCiphertext, endpoint.reference)];
    if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(this.decryptSecret(endpoint.previousSecretCiphertext, endpoint.reference));
    }
    return deliveryRequest(event, endpoint.webhookVersion, secrets, timestamp);
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
    const eventName = await this.events.nameOf(m, delivery.eventId);
    return this.logs.insert(m, {
      reference: `whl_${randomBytes(12).toString('hex')}`,
      deliveryId: delivery.id,
      developerId: endpoint.developerId,
      mode: endpoint.mode,
      endpointId: endpoint.id,
      eventId: delivery.eventId,
      eventName: eventName ?? 'unknown',
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
