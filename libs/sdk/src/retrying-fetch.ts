import { GatewayConnectionError } from './errors.js';

export type Fetch = (request: Request) => Promise<Response>;

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 attempts). */
  maxRetries: number;
  /** The first backoff; each retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  /** The longest wait between two attempts, a server's Retry-After included: one that asks for longer is not retried. */
  maxDelayMs: number;
  /** Per attempt: an attempt with no answer by then is abandoned (and retried like a dropped connection). */
  timeoutMs: number;
}

/** Answers that say "try again later", and that a retry with the same idempotency key makes safe. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const IDEMPOTENCY_HEADERS = ['idempotency-key', 'x-idempotency-key'];

/**
 * Wraps `fetch` with what makes a call safe to repeat:
 * - a mutating request without an idempotency key gets one (a UUID), decided once, so every retry
 *   of the call carries the SAME key and the gateway replays the first answer instead of acting twice;
 * - 429, 500, 502, 503, 504, a 409 `idempotency_key_in_progress` (the first attempt still running),
 *   a dropped connection and an attempt timeout are retried with exponential backoff and jitter,
 *   never sooner than the answer's Retry-After.
 * `sleep` and `random` are parameters so the policy can be tested without waiting.
 */
export function retryingFetch(fetchImpl: Fetch, policy: RetryPolicy, sleep = defaultSleep, random = Math.random): Fetch {
  return async (original) => {
    const request = await withIdempotencyKey(original);
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(policy.timeoutMs);
      let response: Response;
      try {
        response = await fetchImpl(new Request(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) }));
      } catch (error) {
        // The caller's own abort is final; anything else (connection refused or reset, timeout) may be retried.
        if (request.signal.aborted) throw error;
        if (attempt >= policy.maxRetries) {
          const what = timeout.aborted ? `no answer within ${policy.timeoutMs} ms` : 'the connection failed';
          throw new GatewayConnectionError(`${request.method} ${request.url}: ${what} (${attempt + 1} attempt${attempt ? 's' : ''})`, { cause: error });
        }
        await sleep(retryDelayMs(attempt, null, policy, random) as number);
        continue;
      }
      if (attempt >= policy.maxRetries || !(await isRetryable(response))) return response;
      const delay = retryDelayMs(attempt, response.headers.get('retry-after'), policy, random);
      if (delay === undefined) return response;
      // Frees the connection; not awaited: cancelling a cloned (teed) body settles only once every branch is done.
      response.body?.cancel().catch(() => undefined);
      await sleep(delay);
    }
  };
}

/**
 * The wait before retry number `attempt + 1`: exponential (base × 2^attempt, capped at maxDelayMs)
 * with "equal jitter" (half fixed, half random), so clients that failed together do not return
 * together; never less than Retry-After (seconds or an HTTP date). undefined when Retry-After asks
 * for more than maxDelayMs: the caller gets the answer (and its `retry_after`) rather than a long hang.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number | undefined {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = backoff / 2 + (random() * backoff) / 2;
  const serverMs = parseRetryAfter(retryAfter);
  if (serverMs === undefined) return jittered;
  if (serverMs > policy.maxDelayMs) return undefined;
  return Math.max(serverMs, jittered);
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

async function isRetryable(response: Response): Promise<boolean> {
  if (RETRYABLE_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return body?.code === 'idempotency_key_in_progress';
}

/**
 * The request with an `Idempotency-Key` when it is mutating and has none. A body's own
 * `idempotency_key` (payment initialize accepts one) is reused as the header: the gateway refuses
 * two different keys in one request.
 */
async function withIdempotencyKey(request: Request): Promise<Request> {
  if (!MUTATING_METHODS.has(request.method) || IDEMPOTENCY_HEADERS.some((h) => request.headers.has(h))) return request;
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', (await bodyIdempotencyKey(request)) ?? newIdempotencyKey());
  return new Request(request, { headers });
}

async function bodyIdempotencyKey(request: Request): Promise<string | undefined> {
  if (!request.headers.get('content-type')?.includes('json')) return undefined;
  const body = (await request
    .clone()
    .json()
    .catch(() => null)) as { idempotency_key?: unknown } | null;
  return typeof body?.idempotency_key === 'string' ? body.idempotency_key : undefined;
}

/** A random UUID v4; `crypto.randomUUID` exists in Node and in browsers' secure contexts, getRandomValues everywhere. */
export function newIdempotencyKey(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
