import type { FieldErrors, ListMeta } from '@gateway/contracts';
import { ApiError } from '../api-client';

interface FetchResult<T> {
  data?: { data: T; meta?: ListMeta } | undefined;
  error?: { code: string; message: string; errors?: Record<string, unknown>; retry_after?: number } | undefined;
  response: Response;
}

/**
 * The data of a success envelope, or an {@link ApiError} with the error envelope's code: features
 * handle one error type whether the API refused, a proxy answered, or the network failed.
 */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  return (await unwrapEnvelope(call)).data;
}

/** A page of a cursor-paginated list: its rows and `meta` (`next_cursor`, `has_more`). */
export interface Page<T> {
  data: T;
  meta: ListMeta;
}

export async function unwrapPage<T>(call: Promise<FetchResult<T>>): Promise<Page<T>> {
  const { data, meta } = await unwrapEnvelope(call);
  // A list answer always has meta; without one there is no next page to offer.
  return { data, meta: meta ?? { next_cursor: null, has_more: false, limit: 0 } };
}

async function unwrapEnvelope<T>(call: Promise<FetchResult<T>>): Promise<{ data: T; meta?: ListMeta }> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (cause) {
    throw new ApiError({ code: 'network_error', status: 0, message: 'The API could not be reached.' }, { cause });
  }
  const { data, error, response } = result;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (error && typeof error === 'object' && typeof error.code === 'string') {
    throw new ApiError({ code: error.code, status: response.status, message: error.message, errors: fieldErrors(error.errors), requestId, retryAfter: error.retry_after });
  }
  if (!response.ok) {
    throw new ApiError({ code: 'invalid_response', status: response.status, message: `The API answered HTTP ${response.status}.`, requestId });
  }
  // 204 No Content has no envelope.
  return { data: (data?.data ?? undefined) as T, meta: data?.meta };
}

/** The envelope's `errors` (field → messages), kept only in that shape so forms can show them on their fields. */
function fieldErrors(errors: Record<string, unknown> | undefined): FieldErrors | undefined {
  if (!errors) return undefined;
  const entries = Object.entries(errors).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((m) => typeof m === 'string'));
  return entries.length ? Object.fromEntries(entries) : undefined;
}
