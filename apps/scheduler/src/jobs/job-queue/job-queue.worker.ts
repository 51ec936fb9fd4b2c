import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MailerService, SEND_MAIL_TASK } from '@gateway/domain/identity';
import { BulkBatchesService, PAYMENT_BATCH_TASK } from '@gateway/domain/bulk-payments';
import { TRANSFER_BATCH_TASK, TransferBatchesService } from '@gateway/domain/transfers';
import { EXPORT_TASK, ExportRunner } from '@gateway/domain/exports';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { Logger as GraphileLogger, type LogFunctionFactory, type Runner, run } from 'graphile-worker';
import { Pool } from 'pg';
import { DATABASE_URL } from './database-url.token';

const SWEEP_INTERVAL_MS = 5000;

/**
 * The scheduler's job-queue worker (graphile-worker on PostgreSQL, woken by LISTEN/NOTIFY, so a job
 * starts within milliseconds of the commit that enqueued it): bulk payment and transfer batches,
 * exports and portal e-mails (webhook deliveries are claimed from their own table by
 * WebhookDeliveryWorker). A sweeper re-enqueues batches left unfinished by a crashed worker.
 * Later asynchronous jobs register here too.
 */
@Injectable()
export class JobQueueWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobQueue');
  private runner?: Runner;
  private pool?: Pool;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly batches: BulkBatchesService,
    private readonly transferBatches: TransferBatchesService,
    private readonly mailer: MailerService,
    private readonly exports: ExportRunner,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.pool = this.connectionPool();
    this.runner = await run({
      pgPool: this.pool,
      concurrency: 10,
      noHandleSignals: true,
      pollInterval: 2000,
      // Our schedules are the scheduler's own cron scans; no crontab file is looked for.
      parsedCronItems: [],
      logger: new GraphileLogger(this.graphileLogs),
      taskList: {
        [PAYMENT_BATCH_TASK]: async (payload) => {
          await this.batches.process((payload as { batch_id: string }).batch_id);
        },
        // A failed attempt is retried by the queue (restarting the file); the last one marks the export failed.
        [EXPORT_TASK]: async (payload, helpers) => {
          await this.exports.run((payload as { export_id: string }).export_id, helpers.job.attempts >= helpers.job.max_attempts);
        },
        [TRANSFER_BATCH_TASK]: async (payload) => {
          await this.transferBatches.process((payload as { batch_id: string }).batch_id);
        },
        // Only a worker that can reach the mail server takes mail jobs (graphile-worker fetches
        // jobs of the tasks it lists), so one configured without SMTP_URL never fails them.
        ...(this.mailer.queuesMail
          ? {
              [SEND_MAIL_TASK]: async (payload: unknown) => {
                await this.mailer.deliverQueued((payload as { mail_id: string }).mail_id);
              },
            }
          : {}),
      },
    });
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
  }

  /**
   * The queue's own connections, under the scheduler's DATABASE_POOL_TIMEOUT_MS and
   * DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS like its other pool (PoolSettings). graphile-worker's
   * default pool waits for a connection without limit, so a database that accepts connections but
   * never answers them would hold the worker, and its start, for ever. With the deadline, fetching a job fails and is tried again at the next poll, and a
   * scheduler that cannot reach the database at start stops with an error instead of hanging.
   */
  private connectionPool(): Pool {
    const pool = new Pool({
      connectionString: this.databaseUrl,
      // graphile-worker's own default: one connection is its LISTEN session's.
      max: 10,
      connectionTimeoutMillis: this.config.database.poolTimeoutMs,
      idle_in_transaction_session_timeout: this.config.database.idleInTransactionTimeoutMs,
      application_name: 'gateway-scheduler job queue',
    });
    // A connection lost while idle or in use must not end the process (pg emits 'error'); pg drops
    // it from the pool, and a query on it fails and is retried by the queue.
    pool.on('error', (error) => this.logger.warn(`Job-queue connection lost while idle: ${error.message}`));
    pool.on('connect', (client) => client.on('error', (error) => this.logger.warn(`Job-queue connection lost: ${error.message}`)));
    return pool;
  }

  /** graphile-worker's messages in the scheduler's log: its routine ones (connected, task done) at debug. */
  private readonly graphileLogs: LogFunctionFactory = () => (level, message) => {
    if (level === 'error') this.logger.error(message);
    else if (level === 'warning') this.logger.warn(message);
    else this.logger.debug(message);
  };

  async onApplicationShutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.runner?.stop();
    // graphile-worker ends only the pools it made.
    await this.pool?.end();
  }

  private async sweep(): Promise<void> {
    try {
      const resumed = await this.batches.resumeStalled();
      if (resumed) this.logger.warn(`Re-enqueued ${resumed} stalled payment batches`);
      const resumedTransfers = await this.transferBatches.resumeStalled();
      if (resumedTransfers) this.logger.warn(`Re-enqueued ${resumedTransfers} stalled transfer batches`);
    } catch (error) {
      this.logger.error('Job-queue sweep failed', error instanceof Error ? error.stack : String(error));
    }
  }
}
