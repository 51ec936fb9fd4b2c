import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import type { BulkBatchesService } from '@gateway/domain/bulk-payments';
import type { ExportRunner } from '@gateway/domain/exports';
import type { MailerService } from '@gateway/domain/identity';
import type { TransferBatchesService } from '@gateway/domain/transfers';
import { testConfig, waitFor } from '@gateway/platform/testing';
import { Client } from 'pg';
import { JobQueueWorker } from './job-queue.worker';

const APPLICATION_NAME = 'gateway-scheduler job queue';

/** The worker with nothing queued: its collaborators are only asked for stalled batches, and find none. */
function worker(databaseUrl: string, poolTimeoutMs: number): JobQueueWorker {
  const nothingStalled = { resumeStalled: async () => 0 };
  return new JobQueueWorker(
    nothingStalled as unknown as BulkBatchesService,
    nothingStalled as unknown as TransferBatchesService,
    { queuesMail: false } as unknown as MailerService,
    {} as ExportRunner,
    databaseUrl,
    testConfig({ DATABASE_POOL_TIMEOUT_MS: String(poolTimeoutMs) }),
  );
}

describe('JobQueueWorker', () => {
  it('gives up connecting after DATABASE_POOL_TIMEOUT_MS: a database that accepts connections and never answers stops its start instead of holding it', async () => {
    // A loopback listener that takes the connection and never answers PostgreSQL's start-up message.
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const jobs = worker(`postgres://gateway@127.0.0.1:${port}/gateway`, 300);
    try {
      const started = Date.now();
      await expect(jobs.onApplicationBootstrap()).rejects.toThrow(/timeout/i);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5000);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      await jobs.onApplicationShutdown();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('runs on a pool of its own, named in pg_stat_activity, and closes it at shutdown', async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL as string;
    const observer = new Client({ connectionString: databaseUrl });
    await observer.connect();
    const sessions = async () =>
      (await observer.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [APPLICATION_NAME]))
        .rows[0].n;
    const jobs = worker(databaseUrl, 10_000);
    let stopped = false;
    try {
      await jobs.onApplicationBootstrap();
      // graphile-worker holds one session for its LISTEN while it runs.
      await waitFor(async () => (await sessions()) >= 1, { what: 'the job queue to listen' });
      stopped = true;
      await jobs.onApplicationShutdown();
      // A backend leaves pg_stat_activity a moment after its client has gone; an idle connection
      // left in the pool would stay 10 s (pg-pool's idle timeout).
      await waitFor(async () => (await sessions()) === 0, { what: "the job queue's sessions to close", timeoutMs: 5000, intervalMs: 50 });
    } finally {
      if (!stopped) await jobs.onApplicationShutdown();
      await observer.end();
    }
  });
});
