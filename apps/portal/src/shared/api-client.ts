import type { ErrorCode, FieldErrors, ListMeta } from '@gateway/contracts';

/**
 * A small typed client for the gateway API. Every API answer is an envelope:
 *   success → `{ success: true, data, meta? }`
 *   failure → `{ success: false, code, message, errors?, retry_after? }`
 * The client unwraps successes and turns everything else (error envelopes, unreachable API,
 * answers that are not envelopes) into an {@link ApiError}, so callers handle one error type.
 *
 * It is a pure function of the `fetch` implementation it is given: tests pass a fake one.
 */

/** The subset of `fetch` the client needs. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Codes the client itself produces when there is no usable error envelope. */
export type ClientErrorCode =
  /** The request never got an HTTP answer (API or proxy unreachable, DNS, CORS…). */
  | 'network_error'
  /** An HTTP answer came back but it is not a gateway envelope (e.g. a proxy's HTML error page). */
  | 'invalid_response';

/**
 * Gateway error codes, client codes, and — since a newer API may answer with a code this
 * portal does not know yet — any other string.
 */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

export interface ApiErrorInit {
  code: ApiErrorCode;
  message: string;
  /** HTTP status; 0 when no HTTP answer was received. */
  status: number;
  errors?: FieldErrors;
  retryAfter?: number;
  requestId?: string;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly retryAfter?: number;
  readonly requestId?: string;

  constructor(init: ApiErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.errors = init.errors;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** Query string parameters; `undefined` and `null` values are left out. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  /** Present on list answers (cursor pagination). */
  meta?: ListMeta;
  requestId?: string;
}

export interface ApiClient {
  /** Sends a request and returns the unwrapped envelope; rejects with {@link ApiError}. */
  request<T>(path: string, options?: ApiRequestOptions): Promise<ApiResponse<T>>;
  /** `GET path` and return `data` only. */
  get<T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
}

export interface ApiClientOptions {
  /** Defaults to the browser's `fetch`. */
  fetch?: FetchLike;
  /** Prefix for every path, e.g. `https://gateway.example.com`. Defaults to same origin (`''`). */
  baseUrl?: string;
  /** Headers sent with every request (e.g. an API key in tests or scripts). */
  headers?: Record<string, string>;
}

const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const fetchImpl = options.fetch ?? defaultFetch;
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const defaultHeaders = options.headers ?? {};

  async function request<T>(path: string, requestOptions: ApiRequestOptions = {}): Promise<ApiResponse<T>> {
    const { method = 'GET', query, body, signal } = requestOptions;
    const headers: Record<string, string> = { accept: 'application/json', ...defaultHeaders, ...requestOptions.headers };
    const init: RequestInit = { method, headers, signal, credentials: 'same-origin' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }

    let response: Response;
    try {
      response = await fetchImpl(buildUrl(baseUrl, path, query), init);
    } catch (error) {
      // A cancelled request is not an API failure: let the caller see its own AbortError.
      if (signal?.aborted) throw error;
      throw new ApiError(
        { code: 'network_error', status: 0, message: 'Could not reach the API. Check that it is running and reachable.' },
        { cause: error },
      );
    }
    return readEnvelope<T>(response);
  }

  return {
    request,
    async get<T>(path: string, getOptions: Omit<ApiRequestOptions, 'method' | 'body'> = {}): Promise<T> {
      const response = await request<T>(path, { ...getOptions, method: 'GET' });
      return response.data;
    },
  };
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

/** Turns an HTTP answer into the envelope's data, or throws the matching {@link ApiError}. */
export async function readEnvelope<T>(response: Response): Promise<ApiResponse<T>> {
  const status = response.status;
  const requestId = response.headers.get('x-request-id') ?? undefined;

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ApiError(
      { code: 'network_error', status, requestId, message: 'The connection to the API was interrupted.' },
      { cause: error },
    );
  }

  if (status === 204 && text.trim() === '') {
    return { status, data: undefined as T, requestId };
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidResponse(status, requestId);
  }

  if (isRecord(body) && body['success'] === true && 'data' in body && response.ok) {
    const meta = isListMeta(body['meta']) ? body['meta'] : undefined;
    return { status, data: body['data'] as T, ...(meta ? { meta } : {}), requestId };
  }

  if (isRecord(body) && body['success'] === false && typeof body['code'] === 'string' && typeof body['message'] === 'string') {
    throw new ApiError({
      code: body['code'],
      message: body['message'],
      status,
      errors: isFieldErrors(body['errors']) ? body['errors'] : undefined,
      retryAfter: retryAfterFrom(body['retry_after'], response.headers.get('retry-after')),
      requestId,
    });
  }

  throw invalidResponse(status, requestId);
}

function invalidResponse(status: number, requestId: string | undefined): ApiError {
  return new ApiError({
    code: 'invalid_response',
    status,
    requestId,
    message: `The API answered with an unexpected response (HTTP ${status}).`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isListMeta(value: unknown): value is ListMeta {
  return (
    isRecord(value) &&
    (typeof value['next_cursor'] === 'string' || value['next_cursor'] === null) &&
    typeof value['has_more'] === 'boolean' &&
    typeof value['limit'] === 'number'
  );
}

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    isRecord(value) &&
    Object.values(value).every((messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
  );
}

function retryAfterFrom(bodyValue: unknown, header: string | null): number | undefined {
  if (typeof bodyValue === 'number' && Number.isFinite(bodyValue) && bodyValue >= 0) return bodyValue;
  if (header !== null && /^\d+$/.test(header.trim())) return Number(header.trim());
  return undefined;
}
