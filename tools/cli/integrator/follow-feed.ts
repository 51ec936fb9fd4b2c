import type { ApiAnswer, GatewayClient } from './gateway-client';
import { ApiError, UnreachableError } from './gateway-client';

/** The longest a feed read waits on the gateway (its maximum). */
const WAIT_SECONDS = 25;
/** A read's own deadline: the wait plus room for a slow answer. */
const READ_TIMEOUT_MS = (WAIT_SECONDS + 20) * 1000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface FollowOptions<T> {
  client: GatewayClient;
  /** `/events` or `/request-logs`. */
  path: string;
  /** The feed's filters. */
  query?: Record<string, string | undefined>;
  /** Called once the feed's "now" is known: everything written from here on will be handled. */
  onReady?: () => void;
  /** Handles one page, in order, before the next is read. */
  handle: (items: T[]) => Promise<void>;
  /** Status lines (lost and regained connection). */
  log: (line: string) => void;
  signal: AbortSignal;
}

/**
 * Follows a feed of the gateway from "now" until `signal` fires: long-polls page after page, and
 * while the gateway does not answer (stopped, restarting, busy) tries again with backoff (1 s,
 * doubling up to 30 s; a 429's retry_after), resuming at the same cursor so nothing is missed.
 * @throws ApiError when the gateway refuses outright (a revoked key, a missing scope, a bad filter)
 */
export async function followFeed<T>(options: FollowOptions<T>): Promise<void> {
  const retry = new Retry(options.log, options.client.baseUrl, options.signal);
  const start = await retry.run(() => options.client.request<T[]>('GET', options.path, { query: { ...options.query, after: 'now', limit: 1 }, signal: options.signal }));
  if (!start) return;
  let cursor = start.meta?.next_cursor as string;
  options.onReady?.();
  while (!options.signal.aborted) {
    const page = await retry.run(() =>
      options.client.request<T[]>('GET', options.path, {
        query: { ...options.query, after: cursor, wait: WAIT_SECONDS, limit: 100 },
        signal: options.signal,
        timeoutMs: READ_TIMEOUT_MS,
      }),
    );
    if (!page) return;
    await options.handle(page.data);
    cursor = page.meta?.next_cursor as string;
  }
}

/** Repeats a request while the failure is transient; undefined once aborted. */
class Retry {
  private failures = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly baseUrl: string,
    private readonly signal: AbortSignal,
  ) {}

  async run<A>(request: () => Promise<ApiAnswer<A>>): Promise<ApiAnswer<A> | undefined> {
    for (;;) {
      if (this.signal.aborted) return undefined;
      try {
        const answer = await request();
        if (this.failures > 0) this.log(`Connected to ${this.baseUrl} again.`);
        this.failures = 0;
        return answer;
      } catch (error) {
        if (this.signal.aborted) return undefined;
        if (!(error instanceof UnreachableError) && !(error instanceof ApiError && error.transient)) throw error;
        const delayMs =
          error instanceof ApiError && error.retryAfter ? error.retryAfter * 1000 : Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
        this.failures += 1;
        const reason = error instanceof ApiError ? `${error.status} ${error.code}` : error.message;
        this.log(`${reason}; retrying in ${delayMs / 1000} s…`);
        await pause(delayMs, this.signal);
      }
    }
  }
}

/** Resolves after `ms`, or at once when `signal` fires. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
