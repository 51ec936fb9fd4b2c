import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, DecryptionError, DomainError, Encryptor, failpoint, inTransaction, timeOrderedHex } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { recordAttempts } from './attempt-records.statement';
import { CallBatcher } from './call-batcher';
import { EventsRepository } from './events.repository';
import { type DeliveryRequest, deliveryRequest } from './delivery-request';
import { applyAttempt } from './recorded-attempt';
import type { AttemptTrigger, WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { type ClaimedDelivery, type DeliveryTarget, type LeasedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import type { AttemptHealth } from './webhook-endpoint-health.repository';
import type { EventForDelivery } from './webhook-payload';
import { WebhookResolver } from './webhook-resolver';
import { urlPolicy } from './url-guard';
import { type AttemptOutcome, postWebhook } from './webhook-sender';

/** A lease outlives the attempt's own deadline by this much (time to record the outcome). */
const LEASE_MARGIN_MS = 5000;
/** Most attempts recorded by one transaction. */
const MAX_BATCH = 100;

/** Why an attempt could not even be sent: logged for the operator (never a secret); the merchant's log says `not_sent`. */
class PreparationError extends Error {}

/** A finished attempt, waiting to be recorded. */
interface FinishedAttempt {
  delivery: Pick<LeasedDelivery, 'id' | 'eventId' | 'leaseUntil'>;
  endpoint: Pick<DeliveryTarget, 'id' | 'developerId' | 'mode'>;
  /** The event's name for the log; null once the event is gone. */
  eventName: string | null;
  trigger: AttemptTrigger;
  outcome: AttemptOutcome;
  finishedAt: Date;
}

/**
 * Sends deliveries and records every attempt.
 *
 * One attempt at a time per delivery: every attempt — automatic, manual retry or test — first
 * takes the delivery's lease (a conditional UPDATE), so a manual retry never runs alongside an
 * automatic attempt (it answers `conflict` instead), and two workers never send the same attempt.
 * Leases are measured on the database's clock: they coordinate processes (API and scheduler) that
 * may not share a clock, and an injected test clock must not make a live lease look expired.
 *
 * Batches: scheduled attempts are claimed from the deliveries table itself (startDueAttempts):
 * one statement leases up to the free slots' number of due deliveries and reads their endpoints
 * and events — whatever made a delivery due, a new event, a retry's time, a replay — the longest
 * due first; rows another scheduler is claiming are skipped, so several share the work without
 * waiting for each other. Each is sent on its own, and finished attempts are recorded together
 * (one transaction of a few statements, whatever their number), a batch formed from the attempts
 * that finished while the previous one was written, so an attempt waits for no timer (CallBatcher).
 *
 * Crash safety: if the worker dies after sending and before recording, the lease expires and the
 * delivery is due again (its schedule was not moved), so the next claim sends it again: the
 * event arrives at least once (same event id).
 *
 * Numbering: a log's `attempt` is the delivery's previous highest + 1, read under the delivery's
 * row lock in the transaction that writes the log (unique per delivery, enforced by an index).
 * `webhook_deliveries.attempts` counts automatic attempts only: it is the retry schedule's
 * position, which manual retries and replays do not move.
 *
 * Health: the transaction that logs attempts also updates their endpoints' health (last success
 * or failure, the run of failed deliveries, the day's counts), last, after the deliveries' locks:
 * the order (deliveries, then their endpoint) every transaction touching both keeps.
 * A replayed delivery (POST /webhooks/{id}/replay) gets exactly one attempt, logged `replay`:
 * delivered on success, `failed` again otherwise, with no schedule.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly records = new CallBatcher<FinishedAttempt, WebhookDeliveryLogEntity>((attempts) => this.recordAll(attempts), MAX_BATCH);

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
    private readonly encryptor: Encryptor,
    private readonly resolver: WebhookResolver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get leaseMs(): number {
    return this.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
  }

  /**
   * Leases up to `limit` due deliveries (WebhookDeliveriesRepository.claimNextDue) and starts
   * their attempts; answers one promise per attempt started, settled once it is recorded.
   */
  async startDueAttempts(limit: number): Promise<Array<Promise<void>>> {
    const claimed = await this.deliveries.claimNextDue(limit, this.leaseMs, this.clock.now());
    return claimed.map((c) => this.runClaimed(c));
  }

  /**
   * One scheduled attempt of this one delivery, if it is due and not in flight: how tests drive a
   * given delivery through its schedule (startDueAttempts would take whichever deliveries are due).
   */
  async runScheduledAttempt(deliveryId: string): Promise<void> {
    const [claimed] = await this.deliveries.claimDueOf([deliveryId], this.leaseMs, new Date(this.clock.now().getTime() + 1000));
    if (claimed) await this.runClaimed(claimed);
  }

  private async runClaimed({ delivery, endpoint, event }: ClaimedDelivery): Promise<void> {
    // A disabled endpoint gets nothing more until it is enabled (and its failed deliveries replayed).
    if (!endpoint || endpoint.deletedAt || endpoint.status === 'disabled') {
      await inTransaction(this.dataSource, async (m) => {
        await this.deliveries.move(m, delivery.id, 'fail', this.clock.now());
        await this.deliveries.release(m, delivery);
      });
      return;
    }
    const outcome = await this.attempt(endpoint, delivery.eventId, event);
    failpoint('webhooks.after-send');
    await this.records.call(this.finished(delivery, endpoint, event, outcome, delivery.replay ? 'replay' : 'automatic'));
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
    const event = await this.events.find(endpoint, leased.eventId);
    const outcome = await this.attempt(endpoint, leased.eventId, event);
    return this.records.call(this.finished(leased, endpoint, event, outcome, trigger));
  }

  private finished(
    delivery: FinishedAttempt['delivery'],
    endpoint: FinishedAttempt['endpoint'],
    event: EventForDelivery | null,
    outcome: AttemptOutcome,
    trigger: AttemptTrigger,
  ): FinishedAttempt {
    return { delivery, endpoint, eventName: event?.name ?? null, trigger, outcome, finishedAt: this.clock.now() };
  }

  /**
   * Writes the attempts' logs, moves their deliveries and updates their endpoints' health, in one
   * transaction under the deliveries' row locks: attempt numbers are taken there, status moves
   * follow DELIVERY_TRANSITIONS, and the schedule and the lease are only touched while an attempt
   * still holds the lease (applyAttempt). Two statements: the lock, then everything else
   * (attempt-records.statement.ts), the endpoints' rows last. Answers each attempt's log, in order.
   */
  private recordAll(attempts: FinishedAttempt[]): Promise<WebhookDeliveryLogEntity[]> {
    return inTransaction(this.dataSource, async (m) => {
      const ids = [...new Set(attempts.map((a) => a.delivery.id))];
      const rows = new Map((await this.deliveries.lock(m, ids)).map((row) => [row.id, row]));
      const health: AttemptHealth[] = [];
      const logs = attempts.map(({ delivery, endpoint, eventName, trigger, outcome, finishedAt }) => {
        const row = rows.get(delivery.id);
        if (!row) throw new Error(`delivery ${delivery.id} not found`);
        // A retry is due at the row's next_attempt_at, written back below: the next claim after it takes it.
        const effects = applyAttempt(row, { leaseUntil: delivery.leaseUntil, trigger, success: outcome.success, finishedAt }, this.config.webhooks.retryScheduleMs);
        health.push({
          endpointId: endpoint.id,
          deliveryId: delivery.id,
          success: outcome.success,
          error: outcome.error,
          statusCode: outcome.statusCode,
          at: finishedAt,
          endedDeliveryFailed: effects.endedDeliveryFailed,
        });
        return {
          reference: `whl_${timeOrderedHex(12)}`,
          deliveryId: delivery.id,
          developerId: endpoint.developerId,
          mode: endpoint.mode,
          endpointId: endpoint.id,
          eventId: delivery.eventId,
          eventName: eventName ?? 'unknown',
          trigger,
          success: outcome.success,
          statusCode: outcome.statusCode,
          latencyMs: outcome.latencyMs,
          error: outcome.error,
          responseBody: outcome.responseBody,
          createdAt: finishedAt,
        };
      });
      return recordAttempts(m, { logs, deliveries: [...rows.values()], health });
    });
  }

  /**
   * Prepares and sends one attempt; never throws. A failure before sending (the event is gone,
   * the secret cannot be decrypted) is a failed attempt like any other, so it is logged and the
   * schedule moves on instead of the next claim re-running it forever.
   */
  private async attempt(endpoint: DeliveryTarget, eventId: string, event: EventForDelivery | null): Promise<AttemptOutcome> {
    const started = performance.now();
    try {
      const request = this.prepare(endpoint, eventId, event);
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
  private prepare(endpoint: DeliveryTarget, eventId: string, event: EventForDelivery | null): DeliveryRequest {
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
}
