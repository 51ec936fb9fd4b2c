import { ApiError } from '../api-client';

interface FetchResult<T> {
  data?: { data: T } | undefined;
  error?: { code: string; message: string; errors?: Record<string, unknown>; retry_after?: number } | undefined;
  response: Response;
}

/**
 * The data of a success envelope, or an {@link ApiError} with the error envelope's code: features
 * handle one error type whether the API refused, a proxy answered, or the network failed.
 */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (cause) {
    throw new ApiError({ code: 'network_error', status: 0, message: 'The API could not be reached.' }, { cause });
  }
  const { data, error, response } = result;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (error && typeof error === 'object' && typeof error.code === 'string') {
    throw new ApiError({ code: error.code, status: response.status, message: error.message, requestId, retryAfter: error.retry_after });
  }
  if (!response.ok) {
    throw new ApiError({ code: 'invalid_response', status: response.status, message: `The API answered HTTP ${response.status}.`, requestId });
  }
  // 204 No Content has no envelope.
  return (data?.data ?? undefined) as T;
}
