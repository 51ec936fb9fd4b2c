import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DELIVERIES_DUE_CHANNEL, WebhookDispatcher } from '@gateway/domain/webhooks';
import { NotificationFanOut, type Wake } from '@gateway/platform';
import { DATABASE_URL } from './database-url.token';

/**
 * Webhook attempts in flight at once in this scheduler. The dispatcher leases and records the
 * attempts running together in batches, so more in flight means fewer statements per delivery;
 * each waits at most WEBHOOK_TIMEOUT_MS for its receiver.
 */
const CONCURRENT_DELIVERIES = 64;
/**
 * How often due deliveries are looked for without a notification: retries falling due (and
 * leases expired with a dead worker) are found this late at most, and so is a delivery whose
 * notification was lost (the listening connection down).
 */
const POLL_MS = 500;

/**
 * The webhook deliveries of this scheduler: keeps up to CONCURRENT_DELIVERIES attempts in flight,
 * claiming due deliveries straight from the deliveries table (WebhookDispatcher.startDueAttempts:
 * one statement leases a batch) whenever it is woken — by a NOTIFY on DELIVERIES_DUE_CHANNEL sent
 * by the commit that made deliveries due (an event, a replay), by attempts finishing while more
 * were due than it had room for, or every POLL_MS.
 * Several schedulers share the work: each claims only what it has room for, and a claim skips the
 * rows another is claiming. A scheduler that dies leaves its deliveries leased: once the leases
 * expire they are due again and the next claim of any scheduler takes them.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveries');
  private readonly inFlight = new Set<Promise<void>>();
  private listener?: NotificationFanOut;
  private stopping = false;
  private loop?: Promise<void>;
  /** Wakes the loop early (attempts finished while more were due); replaced at each turn. */
  private nudge: () => void = () => undefined;
  /** The last claim filled every free slot: more may be due, so a finished attempt makes room for them at once. */
  private backlog = false;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
  ) {}

  onApplicationBootstrap(): void {
    this.listener = new NotificationFanOut({
      connectionString: this.databaseUrl,
      channel: DELIVERIES_DUE_CHANNEL,
      applicationName: 'gateway-scheduler webhook deliveries',
      onProblem: (message) => this.logger.warn(message),
    });
    this.loop = this.run(this.listener);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.nudge();
    await this.loop;
    // Attempts under way are sent and recorded before the process ends (as the job runner did).
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.close();
  }

  private async run(listener: NotificationFanOut): Promise<void> {
    while (!this.stopping) {
      // Armed before claiming, so a commit notified while the claim runs wakes the next turn.
      const wake = listener.arm('');
      const nudged = new Promise<void>((resolve) => (this.nudge = resolve));
      await this.claim();
      if (!this.stopping) await this.sleep(wake, nudged);
      wake.dispose();
    }
  }

  /** Fills the free slots with due deliveries. */
  private async claim(): Promise<void> {
    const free = CONCURRENT_DELIVERIES - this.inFlight.size;
    if (free <= 0) {
      // Woken while full: what woke it is claimed as soon as an attempt makes room.
      this.backlog = true;
      return;
    }
    try {
      const started = await this.dispatcher.startDueAttempts(free);
      this.backlog = started.length === free;
      for (const attempt of started) {
        const tracked: Promise<void> = attempt
          .catch((error: unknown) => this.logger.error('webhook attempt failed', error instanceof Error ? error.stack : String(error)))
          .finally(() => {
            this.inFlight.delete(tracked);
            if (this.backlog) this.nudge();
          });
        this.inFlight.add(tracked);
      }
    } catch (error) {
      this.logger.error('claiming due webhook deliveries failed', error instanceof Error ? error.stack : String(error));
    }
  }

  private async sleep(wake: Wake, nudged: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const polled = new Promise<void>((resolve) => (timer = setTimeout(resolve, POLL_MS)));
    await Promise.race([wake.notified, nudged, polled]);
    clearTimeout(timer);
  }
}
