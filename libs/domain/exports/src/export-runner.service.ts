import { Inject, Injectable, Logger } from '@nestjs/common';
import { MailerService } from '@gateway/domain/identity';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { APP_CONFIG, type AppConfig, Clock, enqueueJob } from '@gateway/platform';
import { stringify } from 'csv-stringify';
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXPORT_COLUMNS, toCsvCells } from './export-columns';
import type { ExportEntity } from './export.entity';
import { exportFileKey } from './export.mapper';
import { type ExportRange, ExportSources } from './export-sources';
import { ExportStorage } from './export-storage';
import { EXPORT_MAX_ATTEMPTS, EXPORT_TASK } from './exports.service';
import { ExportsRepository } from './exports.repository';

/** rows_done is written every this many rows, or after this long, whichever comes first. */
const PROGRESS_EVERY_ROWS = 5_000;
const PROGRESS_EVERY_MS = 1_000;
/** A running export whose heartbeat is this old lost its worker: it is queued again (and restarts). */
export const EXPORT_STALL_AFTER_MS = 120_000;
const DAY_MS = 86_400_000;

/** The attempt was superseded by a newer one (after a stall): stop quietly, the newer one writes the file. */
class Superseded extends Error {}

/** Reading the rows failed (as opposed to writing the file). */
class ReadFailed extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/**
 * Writes export files (the job-queue task EXPORT_TASK). Rows come from the owning module's list, a
 * page at a time, through csv-stringify into the storage with backpressure (stream.pipeline): the
 * worker holds about one page and a few buffers whatever the export's size. Each run is a new
 * attempt that rewrites the file from scratch; the attempt number fences off an older attempt.
 * A failed attempt goes back to `queued` for the queue's retry, the last one ends `failed`; a
 * worker that died mid-run is found by its stale heartbeat (resumeStalled), so an export never
 * stays `running`.
 */
@Injectable()
export class ExportRunner {
  private readonly logger = new Logger('Exports');

  constructor(
    private readonly repository: ExportsRepository,
    private readonly sources: ExportSources,
    private readonly storage: ExportStorage,
    private readonly mailer: MailerService,
    private readonly testClocks: TestClocksService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs one export. `lastAttempt`: the queue will not retry it, so a failure is final. Rethrows a failure otherwise. */
  async run(exportId: string, lastAttempt: boolean): Promise<void> {
    const attempt = await this.repository.start(exportId, this.clock.now());
    if (attempt === null) return; // already completed, failed or expired: a duplicate job
    const row = (await this.repository.findById(exportId)) as ExportEntity;
    if (attempt > EXPORT_MAX_ATTEMPTS) {
      await this.repository.stop(exportId, attempt, 'fail', 'too_many_attempts', this.clock.now());
      return;
    }
    let counted = false;
    try {
      const ctx = { developerId: row.developerId, mode: row.mode };
      const source = this.sources.of(row.type);
      const range: ExportRange = {
        from: new Date(row.filters.from),
        to: new Date(row.filters.to),
        currency: (row.filters.currency ?? undefined) as ExportRange['currency'],
        status: row.filters.status ?? undefined,
      };
      const total = await source.count(ctx, range);
      if (!(await this.repository.setTotal(exportId, attempt, total, this.clock.now()))) throw new Superseded();
      counted = true;
      const key = exportFileKey(row);
      const written = await this.write(key, source.rows(ctx, range), row, attempt);
      const completedAt = await this.testClocks.now(ctx);
      const expiresAt = new Date(completedAt.getTime() + this.config.exports.retentionDays * DAY_MS);
      if (!(await this.repository.complete(exportId, attempt, { fileKey: key, ...written, completedAt, expiresAt }))) throw new Superseded();
      this.logger.log(`Export ${row.reference} (${row.type}) completed: ${written.rowsDone} rows, ${written.fileSize} bytes`);
      if (written.rowsDone > this.config.exports.emailThresholdRows) await this.notify(row, written.rowsDone, expiresAt);
    } catch (error) {
      if (error instanceof Superseded) return;
      const phase = !counted || error instanceof ReadFailed ? 'read_error' : 'storage_error';
      this.logger.warn(`Export ${row.reference} attempt ${attempt} failed (${phase}): ${error instanceof Error ? error.message : String(error)}`);
      await this.repository.stop(exportId, attempt, lastAttempt ? 'fail' : 'requeue', phase, this.clock.now());
      if (!lastAttempt) throw error;
    }
  }

  /** Re-queues exports whose worker died mid-run (their heartbeat stopped); returns how many. */
  async resumeStalled(): Promise<number> {
    const stalled = await this.repository.findStalled(new Date(this.clock.now().getTime() - EXPORT_STALL_AFTER_MS), 100);
    for (const id of stalled) {
      await enqueueJob(this.repository.manager, EXPORT_TASK, { name: 'export_id', value: id }, { maxAttempts: EXPORT_MAX_ATTEMPTS });
    }
    return stalled.length;
  }

  /** rows → CSV → storage, with backpressure; the file's size and SHA-256 are taken from the bytes as they pass. */
  private async write(
    key: string,
    rows: AsyncIterable<object>,
    row: ExportEntity,
    attempt: number,
  ): Promise<{ fileSize: number; contentSha256: string; rowsDone: number }> {
    const columns = EXPORT_COLUMNS[row.type];
    const hash = createHash('sha256');
    let fileSize = 0;
    let rowsDone = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        fileSize += chunk.length;
        done(null, chunk);
      },
    });
    const repository = this.repository;
    const clock = this.clock;
    async function* cells(): AsyncGenerator<string[]> {
      let reportedAt = Date.now();
      const source = rows[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<object>;
        try {
          next = await source.next();
        } catch (error) {
          throw new ReadFailed(error);
        }
        if (next.done) return;
        yield toCsvCells(next.value, columns);
        rowsDone++;
        if (rowsDone % PROGRESS_EVERY_ROWS === 0 || Date.now() - reportedAt >= PROGRESS_EVERY_MS) {
          reportedAt = Date.now();
          if (!(await repository.progress(row.id, attempt, rowsDone, clock.now()))) throw new Superseded();
        }
      }
    }
    const writer = this.storage.open(key);
    try {
      await pipeline(Readable.from(cells()), stringify({ header: true, columns: columns.map((c) => c.name), eof: true }), meter, writer.sink);
      await writer.commit();
    } catch (error) {
      await writer.abort();
      throw error;
    }
    return { fileSize, contentSha256: hash.digest('hex'), rowsDone };
  }

  /** A large export is ready: its requester is told through the outbound mail queue (a failure here does not fail the export). */
  private async notify(row: ExportEntity, rows: number, expiresAt: Date): Promise<void> {
    if (!row.notifyEmail) return;
    try {
      await this.mailer.send({
        to: row.notifyEmail,
        subject: `Your ${row.type} export is ready`,
        text: [
          `Your ${row.type} export (${rows.toLocaleString('en-US')} rows, ${row.filters.from} to ${row.filters.to}, ${row.mode} mode) is ready.`,
          `Download it from the Reports page of the portal until ${expiresAt.toISOString()}: ${this.config.portal.baseUrl}/#/reports?export=${row.reference}`,
          `Export reference: ${row.reference}`,
        ].join('\n\n'),
      });
    } catch (error) {
      this.logger.warn(`Export ${row.reference}: the ready e-mail could not be queued: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
