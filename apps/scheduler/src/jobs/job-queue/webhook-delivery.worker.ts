import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { WEBHOOK_DELIVERY_TASK, WebhookDispatcher } from '@gateway/domain/webhooks';
import { Logger as GraphileLogger, type Runner, run } from 'graphile-worker';
import { DATABASE_URL } from './database-url.token';

/**
 * Webhook attempts in flight at once in this scheduler. The dispatcher leases and records the
 * attempts running together in batches, so more in flight means fewer statements per delivery;
 * each waits at most WEBHOOK_TIMEOUT_MS for its receiver.
 */
const CONCURRENT_DELIVERIES = 64;
/**
 * The runner's own connections (its LISTEN session, taking and completing jobs): each job's work
 * runs on the dispatcher's pool, and a job holds one of these only for a statement.
 */
const POOL_SIZE = 3;

/**
 * The job-queue worker of webhook deliveries: a graphile-worker runner of its own, so its
 * concurrency does not let batches or exports run 64 at a time (the scheduler's JobQueueWorker runs
 * those), woken by LISTEN/NOTIFY like it. Each of its workers takes jobs one by one, so several
 * schedulers share the deliveries as they come (graphile-worker's local queue, which fetches jobs
 * in batches, let one of two schedulers take them all in the multi-instance test); a job is
 * completed after its attempt is recorded.
 * A scheduler that dies leaves its jobs locked: the sweeper re-enqueues their deliveries once
 * overdue and not leased, as for any lost job.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveries');
  private runner?: Runner;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.runner = await run({
      connectionString: this.databaseUrl,
      concurrency: CONCURRENT_DELIVERIES,
      maxPoolSize: POOL_SIZE,
      noHandleSignals: true,
      pollInterval: 2000,
      parsedCronItems: [],
      logger: new GraphileLogger(() => (level, message) => {
        if (level === 'error') this.logger.error(message);
        // Its advice to size the pool like the concurrency does not apply here (see POOL_SIZE).
        else if (level === 'warning' && !message.includes('smaller than concurrency')) this.logger.warn(message);
      }),
      // Jobs finishing together are completed by one statement.
      preset: { worker: { completeJobBatchDelay: 0 } },
      taskList: {
        [WEBHOOK_DELIVERY_TASK]: async (payload) => {
          await this.dispatcher.runScheduledAttempt((payload as { delivery_id: string }).delivery_id);
        },
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }
}
