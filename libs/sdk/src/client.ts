import createClient from 'openapi-fetch';
import { GatewayError } from './errors.js';
import type { paths } from './generated/schema.js';
import { type Fetch, retryingFetch } from './retrying-fetch.js';
import type { ApiClient, HttpMethod, InitArgs, ListItem, ListParams, ListPath, PathsWith, RequestInitFor, ResultOf, Schemas } from './types.js';

type KeyOption = { secretKey: string; publishableKey?: never } | { publishableKey: string; secretKey?: never };

export type GatewayOptions = KeyOption & {
  /** Where the gateway is served, e.g. `http://127.0.0.1:3000` (`npm start`) or `https://pay.example.com`; the SDK adds `/api/v1`. */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (a proxy agent, a test double). */
  fetch?: Fetch;
  /** Retries after a 429, 500, 502, 503, 504, a dropped connection or a timeout; default 2. */
  maxRetries?: number;
  /** Per attempt; default 30 000. */
  timeoutMs?: number;
};

/**
 * The gateway's REST API, typed from its OpenAPI document. Paths are relative to /api/v1 and
 * written as the document names them (`/payments/{reference}`); path parameters, query and body
 * go in the init, as openapi-fetch takes them:
 *
 *   const payment = await gateway.get('/payments/{reference}', { params: { path: { reference } } });
 *
 * A call resolves to the answer's `data` and throws a GatewayError (with the gateway's `code`) on an
 * error answer. Every mutating call carries an idempotency key and every call is retried when the
 * gateway or the network says so (see retryingFetch). `client` is the underlying openapi-fetch
 * client, with the same key, retries and idempotency, for the rare call that needs the whole answer
 * (headers, or a list's `meta`).
 */
export class Gateway {
  readonly client: ApiClient;

  constructor(options: GatewayOptions) {
    const key = options.secretKey ?? options.publishableKey;
    if (options.secretKey !== undefined && !/^sk_(test|live)_/.test(options.secretKey)) throw new TypeError('secretKey must be a secret key: sk_test_… or sk_live_…');
    if (options.publishableKey !== undefined && !/^pk_(test|live)_/.test(options.publishableKey)) throw new TypeError('publishableKey must be a publishable key: pk_test_… or pk_live_…');
    if (!key) throw new TypeError('Give a secretKey (server side) or a publishableKey (browser).');
    // A secret key in a web page is readable by anyone who opens it (spec: "Secret keys must not be used in a browser").
    if (options.secretKey && typeof (globalThis as { document?: unknown }).document !== 'undefined') {
      throw new TypeError('A secret key must not be used in a browser: use a publishable key there, and the secret key on your server.');
    }
    const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.client = createClient<paths>({
      baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v1`,
      headers: { Authorization: `Bearer ${key}` },
      fetch: retryingFetch(fetchImpl, { maxRetries: options.maxRetries ?? 2, timeoutMs: options.timeoutMs ?? 30_000, baseDelayMs: 500, maxDelayMs: 10_000 }),
    });
  }

  get<P extends PathsWith<'get'>>(path: P, ...init: InitArgs<RequestInitFor<'get', P>>): Promise<ResultOf<'get', P>> {
    return this.request('get', path, ...init);
  }

  post<P extends PathsWith<'post'>>(path: P, ...init: InitArgs<RequestInitFor<'post', P>>): Promise<ResultOf<'post', P>> {
    return this.request('post', path, ...init);
  }

  patch<P extends PathsWith<'patch'>>(path: P, ...init: InitArgs<RequestInitFor<'patch', P>>): Promise<ResultOf<'patch', P>> {
    return this.request('patch', path, ...init);
  }

  delete<P extends PathsWith<'delete'>>(path: P, ...init: InitArgs<RequestInitFor<'delete', P>>): Promise<ResultOf<'delete', P>> {
    return this.request('delete', path, ...init);
  }

  async request<M extends HttpMethod, P extends PathsWith<M>>(method: M, path: P, ...init: InitArgs<RequestInitFor<M, P>>): Promise<ResultOf<M, P>> {
    const { data, error, response } = await this.send(method, path, init[0]);
    if (!response.ok) throw GatewayError.fromResponse(response, error);
    return (isEnvelope(data) ? data.data : data) as ResultOf<M, P>;
  }

  /**
   * Every item of a cursor-paginated list, page after page (`query.limit` is the page size), newest
   * first, for `for await`. Stopping the loop early fetches no further page.
   *
   *   for await (const payment of gateway.list('/payments', { query: { status: 'success' } })) …
   */
  async *list<P extends ListPath>(path: P, ...params: InitArgs<ListParams<P>>): AsyncGenerator<ListItem<P>, void, undefined> {
    const { path: pathParams, query } = (params[0] ?? {}) as { path?: Record<string, unknown>; query?: Record<string, unknown> };
    let cursor: string | undefined;
    for (;;) {
      const { data, error, response } = await this.send('get', path, { params: { path: pathParams, query: { ...query, ...(cursor ? { cursor } : {}) } } });
      if (!response.ok) throw GatewayError.fromResponse(response, error);
      const page = data as { data: ListItem<P>[]; meta: Schemas['ListMeta'] };
      yield* page.data;
      if (!page.meta.has_more || !page.meta.next_cursor) return;
      cursor = page.meta.next_cursor;
    }
  }

  /** openapi-fetch's call, untyped: the public methods' generics have already checked path, params and body. */
  private send(method: HttpMethod, path: string, init: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }> {
    return (this.client.request as (m: HttpMethod, p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(method, path, init);
  }
}

function isEnvelope(body: unknown): body is { success: true; data: unknown } {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true && 'data' in body;
}
