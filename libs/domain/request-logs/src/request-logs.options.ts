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
  /** Rows the retention purge deletes per statement (each batch commits on its own). */
  purgeBatchSize: number;
}

export const DEFAULT_REQUEST_LOGS_OPTIONS: RequestLogsOptions = {
  flushIntervalMs: 1000,
  batchSize: 500,
  maxBuffered: 20_000,
  purgeBatchSize: 5000,
};

export const REQUEST_LOGS_OPTIONS = Symbol('REQUEST_LOGS_OPTIONS');
