export interface RequestLogsOptions {
  /** The writer flushes its buffer at least this often. */
  flushIntervalMs: number;
  /** …and as soon as this many entries wait; also the most rows one INSERT carries. */
  batchSize: number;
  /**
   * The most entries held in memory while the database does not accept them; beyond it the
   * oldest are dropped, with a warning saying how many.
   */
  maxBuffered: number;
  /**
   * …and the most bytes of text (bodies, paths, headers) they may hold together, since one entry
   * can carry two 64 KiB bodies: 20,000 such entries would be 2.5 GB. The same drop applies.
   */
  maxBufferedBytes: number;
  /**
   * Rows the retention purge deletes per statement (each batch commits on its own): the expired
   * days of the partition that also holds kept ones, and the default partition's expired rows.
   * A partition whose days have all expired is dropped whole.
   */
  purgeBatchSize: number;
  /** The partition upkeep keeps a partition ready for today and this many days ahead. */
  partitionDaysAhead: number;
  /**
   * How long a partition change (create, attach, drop) may wait for its lock on request_logs
   * before giving up until the next run: while it waits, the writes and reads behind it wait too.
   */
  partitionLockTimeoutMs: number;
}

export const DEFAULT_REQUEST_LOGS_OPTIONS: RequestLogsOptions = {
  flushIntervalMs: 1000,
  batchSize: 500,
  maxBuffered: 20_000,
  maxBufferedBytes: 32 * 1024 * 1024,
  purgeBatchSize: 5000,
  partitionDaysAhead: 7,
  partitionLockTimeoutMs: 2000,
};

export const REQUEST_LOGS_OPTIONS = Symbol('REQUEST_LOGS_OPTIONS');
