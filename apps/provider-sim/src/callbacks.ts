import { createHmac } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { Agent } from 'undici';
import type { TaskTracker } from './tasks';

/** Paystack event names the simulator emits. */
export type CallbackEvent =
  | 'charge.success'
  | 'transfer.success'
  | 'transfer.failed'
  | 'transfer.reversed'
  | 'refund.processed'
  | 'refund.failed'
  | 'charge.dispute.create'
  | 'charge.dispute.resolve'
  /** Simulator event: the customer authorized an authorize-only checkout (Paystack documents no such callback). */
  | 'preauthorization.authorized';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** A record of one callback, kept for inspection (GET /sim/callbacks, ProviderSimulator.callbacks()). */
export interface CallbackDelivery {
  id: number;
  event: CallbackEvent;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  /** HTTP status of the last attempt, when the receiver answered at all. */
  lastResponseStatus: number | null;
  lastError: string | null;
  body: string;
  createdAt: Date;
}

export interface CallbackSenderOptions {
  webhookUrl: string | undefined;
  /** Pause before each retry; its length is the number of retries. */
  retryDelaysMs: readonly number[];
  /** Per-attempt timeout, so a receiver that never answers cannot stall the queue for long. */
  attemptTimeoutMs: number;
  /**
   * Deliveries in flight at once (default 1). At 1 they go out one at a time in the order the
   * events happened, which keeps tests deterministic; more lets them go out as they happen,
   * concurrently, as the real provider sends them (a load test: one at a time, callbacks fall
   * behind and most arrive after the load has ended). Each still starts in order of its event.
   */
  concurrency?: number;
  tasks: TaskTracker;
  log: (line: string) => void;
}

/**
 * `x-paystack-signature`: lowercase hex HMAC-SHA512 of the exact raw body,
 * keyed with the secret key of the account the event belongs to.
 */
export function signCallbackBody(rawBody: string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody, 'utf8').digest('hex');
}

/** How many deliveries the inspection log keeps; older ones are dropped. */
const DELIVERY_LOG_LIMIT = 500;

/**
 * Sends signed callbacks to the configured webhook URL.
 *
 * By default deliveries go out one at a time in the order the events happened
 * (each is retried before the next is attempted), which keeps test expectations
 * deterministic; `concurrency` lets several be in flight. Any failure — refused connection, timeout, non-2xx — is
 * retried with the configured backoff and finally recorded as "failed"; it
 * never throws into the simulator.
 */
export class CallbackSender {
  /** Starts deliveries in the order they were queued, at most `concurrency` in flight. */
  private readonly slots: pLimit.Limit;
  /** Kept-alive connections to the receivers. */
  private readonly agent = new Agent();
  private cancellation = cancellationController();
  private readonly log: CallbackDelivery[] = [];
  /** Every delivery since the simulator started, by status: the log keeps only the last 500. */
  private readonly totals: Record<DeliveryStatus, number> = { pending: 0, delivered: 0, failed: 0, cancelled: 0 };
  private nextId = 1;

  private webhookUrl: string | undefined;

  constructor(private readonly options: CallbackSenderOptions) {
    this.webhookUrl = options.webhookUrl;
    this.slots = pLimit(options.concurrency ?? 1);
  }

  /** Later events go to the new URL; deliveries already queued keep theirs. */
  setWebhookUrl(url: string | undefined): void {
    this.webhookUrl = url;
  }

  send(secretKey: string, event: CallbackEvent, data: unknown): void {
    const url = this.webhookUrl;
    if (url === undefined) return;
    // Serialise once: the signature must cover exactly the bytes that are sent.
    const body = JSON.stringify({ event, data });
    const delivery: CallbackDelivery = {
      id: this.nextId++,
      event,
      url,
      status: 'pending',
      attempts: 0,
      lastResponseStatus: null,
      lastError: null,
      body,
      createdAt: new Date(),
    };
    this.remember(delivery);
    this.totals.pending += 1;
    const signature = signCallbackBody(body, secretKey);
    const cancellation = this.cancellation.signal;
    // deliver() handles its own failures and never rejects.
    this.options.tasks.track(this.slots(() => this.deliver(delivery, signature, cancellation)));
  }

  deliveries(): readonly CallbackDelivery[] {
    return this.log.map((delivery) => ({ ...delivery }));
  }

  /** How many deliveries since the simulator started are pending (queued or in flight), delivered, failed or cancelled. */
  counts(): Record<DeliveryStatus, number> {
    return { ...this.totals };
  }

  /** Abandons queued deliveries and aborts the one in flight (used by reset and close). */
  cancelPending(): void {
    this.cancellation.abort();
    this.cancellation = cancellationController();
  }

  private async deliver(delivery: CallbackDelivery, signature: string, cancellation: AbortSignal): Promise<void> {
    delivery.status = await this.attempts(delivery, signature, cancellation);
    this.totals.pending -= 1;
    this.totals[delivery.status] += 1;
    if (delivery.status === 'failed') {
      this.options.log(`callback ${delivery.event} #${delivery.id} to ${delivery.url} failed after ${delivery.attempts} attempts: ${delivery.lastError}`);
    }
  }

  /** Attempts until one is answered 2xx, the retries run out or the delivery is cancelled: how it ended. */
  private async attempts(delivery: CallbackDelivery, signature: string, cancellation: AbortSignal): Promise<Exclude<DeliveryStatus, 'pending'>> {
    const maxAttempts = this.options.retryDelaysMs.length + 1;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (cancellation.aborted) return 'cancelled';
      delivery.attempts = attempt;
      if (await this.attempt(delivery, signature, cancellation)) return 'delivered';
      if (attempt < maxAttempts) {
        try {
          await sleep(this.options.retryDelaysMs[attempt - 1], undefined, { signal: cancellation });
        } catch {
          return 'cancelled';
        }
      }
    }
    return 'failed';
  }

  /**
   * One POST. Returns true on a 2xx answer; records why otherwise. undici's `request`, not `fetch`:
   * a load test sends thousands a second, and fetch's Request, Response and signals per call were
   * a fifth of the simulator's CPU. Redirects are not followed.
   */
  private async attempt(delivery: CallbackDelivery, signature: string, cancellation: AbortSignal): Promise<boolean> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new TimeoutError(this.options.attemptTimeoutMs)), this.options.attemptTimeoutMs);
    const cancel = () => timeout.abort(cancellation.reason);
    cancellation.addEventListener('abort', cancel, { once: true });
    try {
      const { origin, pathname, search } = new URL(delivery.url);
      const response = await this.agent.request({
        origin,
        path: `${pathname}${search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
        body: delivery.body,
        signal: timeout.signal,
      });
      // Drain the body so the connection can be reused or closed.
      await response.body.dump().catch(() => undefined);
      delivery.lastResponseStatus = response.statusCode;
      if (response.statusCode >= 200 && response.statusCode < 300) {
        delivery.lastError = null;
        return true;
      }
      delivery.lastError = `receiver answered HTTP ${response.statusCode}`;
      return false;
    } catch (error) {
      const cause = timeout.signal.aborted ? timeout.signal.reason : error;
      delivery.lastError = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
      return false;
    } finally {
      clearTimeout(timer);
      cancellation.removeEventListener('abort', cancel);
    }
  }

  /** Closes the kept-alive connections to receivers (the simulator's close). */
  async close(): Promise<void> {
    this.cancelPending();
    await this.agent.close();
  }

  private remember(delivery: CallbackDelivery): void {
    this.log.push(delivery);
    if (this.log.length > DELIVERY_LOG_LIMIT) this.log.splice(0, this.log.length - DELIVERY_LOG_LIMIT);
  }
}

/** An attempt that got no answer in time (its name is what the delivery log shows). */
class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * Every delivery in flight or waiting to retry listens on the one cancellation signal: as many as
 * SIM_CALLBACK_CONCURRENCY plus the retries, all removed when they end. Node warns of a leak past
 * ten listeners on one signal; here they are counted by design.
 */
function cancellationController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
