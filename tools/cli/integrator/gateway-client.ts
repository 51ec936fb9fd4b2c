import type { ListMeta } from '@gateway/contracts';

/** The gateway answered with an error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, on 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** Worth asking again later (the gateway is starting, restarting or busy), as opposed to a refusal. */
  get transient(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/** No answer at all: the gateway is not running there, or the connection broke. */
export class UnreachableError extends Error {}

export interface ApiAnswer<T> {
  status: number;
  data: T;
  meta?: ListMeta;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** The whole request's deadline (default 30 s). */
  timeoutMs?: number;
}

/** The merchant API over HTTP with a secret key, as any integration calls it. */
export class GatewayClient {
  constructor(
    readonly baseUrl: string,
    private readonly secretKey: string,
  ) {}

  /**
   * @throws ApiError for an error envelope, UnreachableError when no answer came (an abort by
   *   `signal` rethrows the AbortError)
   */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const query = Object.entries(options.query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    const url = `${this.baseUrl}/api/v1${path}${query.length ? `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)]))}` : ''}`;
    const deadline = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.secretKey}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new UnreachableError(`no answer from ${this.baseUrl} (${describeFetchError(error)})`);
    }
    const text = await response.text().catch(() => '');
    const envelope = parseJson(text) as { success?: boolean; data?: T; meta?: ListMeta; code?: string; message?: string; retry_after?: number } | undefined;
    if (!response.ok || !envelope?.success) {
      throw new ApiError(response.status, envelope?.code ?? 'unexpected_response', envelope?.message ?? `HTTP ${response.status} from ${method} ${path}`, envelope?.retry_after);
    }
    return { status: response.status, data: envelope.data as T, meta: envelope.meta };
  }
}

/** A short reason for a failed fetch: the socket error's code where there is one. */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
