import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { type NewRequestLogEntry, type RequestLogRow, toRequestLogRow } from './request-log-entry';
import { REQUEST_LOGS_OPTIONS, type RequestLogsOptions } from './request-logs.options';
import { RequestLogsRepository } from './request-logs.repository';

// Pauses between the last attempts to write what is left when the application stops.
const SHUTDOWN_RETRY_PAUSES_MS = [0, 100, 500];

/**
 * Keeps request logging off the request path: entries wait in memory and are written in batches
 * (one COPY each) every `flushIntervalMs`, or as soon as `batchSize` entries wait. A timer's write
 * takes the entries recorded before it began, and then only full batches: under load a COPY
 * takes milliseconds, and chasing the entries recorded meanwhile made a stream of small COPYs
 * (about 60 rows each at 3,000 requests a second), each with its own transaction, commit and
 * round trips (docs/benchmarks.md, "Bigger request-log batches").
 * When the database refuses writes the entries stay buffered and are retried; memory stays bounded
 * by `maxBuffered` entries and `maxBufferedBytes` of their text, beyond which the oldest entries
 * are dropped with a warning. Everything still
 * buffered is written when the application shuts down.
 */
@Injectable()
export class RequestLogWriter implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('RequestLogWriter');
  private buffer: RequestLogRow[] = [];
  /** The text the buffered rows hold (rowBytes), kept in step with `buffer`. */
  private bufferedBytes = 0;
  private draining: Promise<void> | null = null;
  /** How many entries at the buffer's front are due now, even as a batch short of `batchSize`. */
  private due = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private consecutiveFailures = 0;
  private lastFailure = '';
  private droppedUnreported = 0;

  constructor(
    private readonly repository: RequestLogsRepository,
    @Inject(REQUEST_LOGS_OPTIONS) private readonly options: RequestLogsOptions,
  ) {}

  /** Entries recorded but not yet written. */
  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Buffers one entry. Bodies are redacted and size-limited right here, so nothing unredacted is
   * ever held in memory. Does not wait for the database.
   */
  record(entry: NewRequestLogEntry): void {
    const row = toRequestLogRow(entry);
    this.buffer.push(row);
    this.bufferedBytes += rowBytes(row);
    this.startTimer();
    this.enforceBound();
    // While the database is failing, retries keep to the timer's pace instead of one per request.
    if (this.buffer.length >= this.options.batchSize && this.consecutiveFailures === 0) void this.write();
  }

  /**
   * Writes everything buffered, including entries recorded while it runs. Resolves once the
   * buffer is empty, or after an attempt the database refused (the entries stay for the next one).
   * Never rejects.
   */
  async flush(): Promise<void> {
    do await this.writeBuffered();
    while (this.buffer.length > 0 && this.consecutiveFailures === 0);
  }

  /** Makes every entry buffered now due, and writes them. */
  private writeBuffered(): Promise<void> {
    this.due = this.buffer.length;
    return this.write();
  }

  /** Writes the due entries and any full batch, one write at a time. Never rejects. */
  private write(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      this.reportDropped();
    });
    return this.draining;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flushBeforeStopping();
  }

  /** Runs after the HTTP server has closed: entries of its last requests are written here. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flushBeforeStopping();
    if (this.buffer.length > 0) {
      this.logger.warn(
        `${this.buffer.length} request log entries could not be written before shutdown and are lost` +
          (this.lastFailure ? ` (last database error: ${this.lastFailure})` : ''),
      );
      this.buffer = [];
      this.bufferedBytes = 0;
    }
  }

  private async drain(): Promise<void> {
    // `due` is read again after each batch: a flush or a tick during a write adds to it.
    while (Math.min(this.due, this.buffer.length) > 0 || this.buffer.length >= this.options.batchSize) {
      const batch = this.buffer.splice(0, this.options.batchSize);
      this.due = Math.max(0, this.due - batch.length);
      this.bufferedBytes -= totalBytes(batch);
      const unwritten = await this.writeBatch(batch);
      if (unwritten.length > 0) {
        // Back to the front: they are the oldest, so the first to go should the bound be reached.
        // They are due again at the next tick.
        this.buffer.unshift(...unwritten);
        this.bufferedBytes += totalBytes(unwritten);
        this.due = 0;
        this.enforceBound();
        return;
      }
    }
  }

  /** Returns the rows that could not be written and should be retried. */
  private async writeBatch(batch: RequestLogRow[]): Promise<RequestLogRow[]> {
    if (!this.repository.isAvailable) return this.failed(batch, 'the connection pool is closed');
    try {
      await this.repository.insertBatch(batch);
      this.consecutiveFailures = 0;
      return [];
    } catch (error) {
      if (isRowDataError(error)) return this.writeOneByOne(batch);
      return this.failed(batch, errorMessage(error));
    }
  }

  /**
   * A row the database refuses (it should not happen: rows are prepared to be storable) must not
   * hold back the whole batch forever: write the rows one by one and drop only the refused ones.
   */
  private async writeOneByOne(batch: RequestLogRow[]): Promise<RequestLogRow[]> {
    for (const [index, row] of batch.entries()) {
      try {
        await this.repository.insertBatch([row]);
      } catch (error) {
        if (!isRowDataError(error)) return this.failed(batch.slice(index), errorMessage(error));
        this.logger.warn(`Dropped the request log entry of request ${row.requestId}: the database refused it (${errorMessage(error)})`);
      }
    }
    this.consecutiveFailures = 0;
    return [];
  }

  private failed(batch: RequestLogRow[], reason: string): RequestLogRow[] {
    this.consecutiveFailures += 1;
    this.lastFailure = reason;
    // The first failure and then every tenth, so a long outage does not flood the log.
    if (this.consecutiveFailures % 10 === 1) {
      this.logger.warn(
        `Could not write ${batch.length} request log entries (failure ${this.consecutiveFailures} in a row); ` +
          `${this.buffer.length + batch.length} are buffered for retry: ${reason}`,
      );
    }
    return batch;
  }

  private enforceBound(): void {
    let excess = Math.max(0, this.buffer.length - this.options.maxBuffered);
    let bytes = this.bufferedBytes - totalBytes(this.buffer, excess);
    // The newest entry always stays: a bound smaller than one entry must not empty the buffer.
    while (bytes > this.options.maxBufferedBytes && excess < this.buffer.length - 1) {
      bytes -= rowBytes(this.buffer[excess]);
      excess += 1;
    }
    if (excess === 0) return;
    this.buffer.splice(0, excess);
    this.due = Math.max(0, this.due - excess);
    this.bufferedBytes = bytes;
    this.droppedUnreported += excess;
  }

  private reportDropped(): void {
    if (this.droppedUnreported === 0) return;
    this.logger.warn(
      `Dropped ${this.droppedUnreported} request log entries: the buffer was full (at most ${this.options.maxBuffered} entries, ` +
        `${Math.round(this.options.maxBufferedBytes / 1024)} KiB) ` +
        `because the database is not accepting them (last error: ${this.lastFailure || 'none yet, writes are slow'})`,
    );
    this.droppedUnreported = 0;
  }

  private startTimer(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      this.reportDropped();
      if (this.buffer.length > 0) void this.writeBuffered();
    }, this.options.flushIntervalMs);
    // Logging alone must not keep a process alive.
    this.timer.unref();
  }

  private async flushBeforeStopping(): Promise<void> {
    for (const pause of SHUTDOWN_RETRY_PAUSES_MS) {
      if (this.buffer.length === 0 || !this.repository.isAvailable) break;
      if (pause > 0) await delay(pause);
      await this.flush();
    }
    this.reportDropped();
  }
}

/**
 * What a row weighs in memory, roughly: its text (2 bytes a character at most in V8) plus a fixed
 * share for the object and its small fields. Only bounds memory, so it need not be exact.
 */
function rowBytes(row: RequestLogRow): number {
  const text =
    row.requestId.length + row.method.length + row.path.length + (row.route?.length ?? 0) + (row.requestBody?.length ?? 0) +
    (row.responseBody?.length ?? 0) + (row.clientIp?.length ?? 0) + (row.userAgent?.length ?? 0);
  return 2 * text + ROW_OVERHEAD_BYTES;
}

const ROW_OVERHEAD_BYTES = 256;

/** The bytes of the first `count` rows (all of them by default). */
function totalBytes(rows: RequestLogRow[], count = rows.length): number {
  let total = 0;
  for (let i = 0; i < count; i++) total += rowBytes(rows[i]);
  return total;
}

/** SQLSTATE classes 22 (data exception) and 23 (constraint violation): the row, not the database, is at fault. */
function isRowDataError(error: unknown): boolean {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
