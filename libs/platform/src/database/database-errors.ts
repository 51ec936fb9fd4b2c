/**
 * How the gateway tells transient database failures from bugs. TypeORM's QueryFailedError copies
 * the driver's fields (`code`, the SQLSTATE) onto itself; a lost connection surfaces from `pg` as
 * a plain Error with a socket code or a fixed message, sometimes wrapped (`cause`, `driverError`).
 */

/** serialization_failure, deadlock_detected: the transaction was rolled back whole and may be run again. */
const RETRYABLE_TRANSACTION_STATES = new Set(['40001', '40P01']);

/**
 * SQLSTATEs that say the server is not there for us right now, not that our SQL is wrong:
 * class 08 (connection exception), admin_shutdown / crash_shutdown / cannot_connect_now (a
 * restart), too_many_connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);
// pg's own wording when the socket closes under a query or the pool cannot connect in time.
const UNAVAILABLE_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /connection is not open|Connection is closed/i];

// TypeORM's own errors when the connection under a transaction was lost and released mid-way.
const UNAVAILABLE_ERROR_NAMES = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError', 'ConnectionIsNotSetError']);

/** query_canceled: the statement ran past the session's statement_timeout (or was cancelled); its transaction is rolled back. */
const CANCELED_STATE = '57014';

/** A statement cancelled by the server, most often past DATABASE_STATEMENT_TIMEOUT_MS: nothing of its transaction was kept. */
export function isStatementCanceledError(error: unknown): boolean {
  return causes(error).some((e) => String(e.code) === CANCELED_STATE);
}

/** A serialization failure or a deadlock: the whole transaction did nothing and may be run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  return causes(error).some((e) => RETRYABLE_TRANSACTION_STATES.has(String(e.code)));
}

/**
 * The database is unreachable, restarting or full, or a transaction kept colliding: the request
 * did not complete and a retry (with the same idempotency key) may succeed — a 503, never a 500.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = String(e.code ?? '');
    if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || RETRYABLE_TRANSACTION_STATES.has(code)) return true;
    if (UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_ERROR_NAMES.has(String(e.name))) return true;
    return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string));
  });
}

/** The error and what it wraps (a few levels: TypeORM's driverError, Error.cause). */
function causes(error: unknown): Array<{ code?: unknown; message?: unknown; name?: unknown }> {
  const found: Array<{ code?: unknown; message?: unknown; name?: unknown }> = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    found.push(e);
    current = e.driverError ?? e.cause;
  }
  return found;
}
