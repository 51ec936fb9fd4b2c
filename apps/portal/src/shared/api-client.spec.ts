import { ApiError, buildUrl, createApiClient, isApiError, type FetchLike } from './api-client';

interface RecordedCall {
  url: string;
  init: RequestInit;
}

/** A fake `fetch` that answers every call with the given response (or failure) and records the calls. */
function fakeFetch(answer: () => Response | Promise<Response>): { fetch: FetchLike; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer();
    },
  };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

describe('createApiClient', () => {
  describe('success envelopes', () => {
    it('unwraps data from { success: true, data }', async () => {
      const { fetch } = fakeFetch(() => json({ success: true, data: { status: 'ok' } }));
      const client = createApiClient({ fetch });

      await expect(client.get<{ status: string }>('/health')).resolves.toEqual({ status: 'ok' });
    });

    it('returns status, list meta and the request id from request()', async () => {
      const meta = { next_cursor: 'cur_2', has_more: true, limit: 2 };
      const { fetch } = fakeFetch(() =>
        json({ success: true, data: [{ id: 'a' }, { id: 'b' }], meta }, 200, { 'x-request-id': 'req_123' }),
      );

      const response = await createApiClient({ fetch }).request<Array<{ id: string }>>('/api/v1/customers');

      expect(response).toEqual({ status: 200, data: [{ id: 'a' }, { id: 'b' }], meta, requestId: 'req_123' });
    });

    it('accepts null data', async () => {
      const { fetch } = fakeFetch(() => json({ success: true, data: null }, 200));
      await expect(createApiClient({ fetch }).get('/x')).resolves.toBeNull();
    });

    it('treats an empty 204 as success without data', async () => {
      const { fetch } = fakeFetch(() => new Response(null, { status: 204 }));
      const response = await createApiClient({ fetch }).request('/api/v1/thing', { method: 'DELETE' });
      expect(response.status).toBe(204);
      expect(response.data).toBeUndefined();
    });
  });

  describe('error envelopes', () => {
    it('throws an ApiError carrying code, message, status and field errors', async () => {
      const { fetch } = fakeFetch(() =>
        json(
          {
            success: false,
            code: 'validation_error',
            message: 'The request is invalid.',
            errors: { email: ['must be an email'], 'address.city': ['is required'] },
          },
          400,
          { 'x-request-id': 'req_abc' },
        ),
      );

      const error = await caught(createApiClient({ fetch }).get('/api/v1/customers'));

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe('validation_error');
      expect(error.message).toBe('The request is invalid.');
      expect(error.status).toBe(400);
      expect(error.errors).toEqual({ email: ['must be an email'], 'address.city': ['is required'] });
      expect(error.requestId).toBe('req_abc');
    });

    it('reads retry_after from the envelope, or else from the Retry-After header', async () => {
      const fromBody = fakeFetch(() =>
        json({ success: false, code: 'rate_limit_exceeded', message: 'Slow down.', retry_after: 7 }, 429, { 'retry-after': '9' }),
      );
      expect((await caught(createApiClient({ fetch: fromBody.fetch }).get('/x'))).retryAfter).toBe(7);

      const fromHeader = fakeFetch(() =>
        json({ success: false, code: 'rate_limit_exceeded', message: 'Slow down.' }, 429, { 'retry-after': '9' }),
      );
      expect((await caught(createApiClient({ fetch: fromHeader.fetch }).get('/x'))).retryAfter).toBe(9);
    });

    it('keeps codes this portal does not know yet', async () => {
      const { fetch } = fakeFetch(() => json({ success: false, code: 'brand_new_code', message: 'New.' }, 409));
      const error = await caught(createApiClient({ fetch }).get('/x'));
      expect(error.code).toBe('brand_new_code');
      expect(error.status).toBe(409);
    });

    it('ignores malformed field errors rather than passing them on', async () => {
      const { fetch } = fakeFetch(() =>
        json({ success: false, code: 'validation_error', message: 'Invalid.', errors: { email: 'not a list' } }, 400),
      );
      expect((await caught(createApiClient({ fetch }).get('/x'))).errors).toBeUndefined();
    });

    it('honours an error envelope even when the HTTP status is 200', async () => {
      const { fetch } = fakeFetch(() => json({ success: false, code: 'internal_error', message: 'Odd.' }, 200));
      const error = await caught(createApiClient({ fetch }).get('/x'));
      expect(error.code).toBe('internal_error');
      expect(error.status).toBe(200);
    });
  });

  describe('answers that are not envelopes', () => {
    it.each([
      ['an HTML error page', () => new Response('<html>Bad gateway</html>', { status: 502 })],
      ['an empty 500 (proxy could not reach the API)', () => new Response('', { status: 500 })],
      ['JSON that is not an envelope', () => json({ status: 'ok' }, 200)],
      ['a success envelope without data', () => json({ success: true }, 200)],
      ['a success envelope with an error status', () => json({ success: true, data: {} }, 500)],
      ['an error envelope without a message', () => json({ success: false, code: 'not_found' }, 404)],
      ['a JSON array', () => json([1, 2, 3], 200)],
    ])('turns %s into invalid_response', async (_name, answer) => {
      const { fetch } = fakeFetch(answer);
      const error = await caught(createApiClient({ fetch }).get('/x'));
      expect(error.code).toBe('invalid_response');
      expect(error.message).toContain(`HTTP ${error.status}`);
    });

    it('turns a rejected fetch into network_error with status 0 and the cause', async () => {
      const failure = new TypeError('fetch failed');
      const { fetch } = fakeFetch(() => Promise.reject(failure));

      const error = await caught(createApiClient({ fetch }).get('/health'));

      expect(error.code).toBe('network_error');
      expect(error.status).toBe(0);
      expect(error.cause).toBe(failure);
    });

    it('rethrows the caller’s abort instead of reporting a network error', async () => {
      const controller = new AbortController();
      const abort = new DOMException('The operation was aborted.', 'AbortError');
      const { fetch } = fakeFetch(() => {
        controller.abort();
        return Promise.reject(abort);
      });

      await expect(createApiClient({ fetch }).get('/health', { signal: controller.signal })).rejects.toBe(abort);
    });
  });

  describe('requests', () => {
    it('sends GET with Accept: application/json, default headers and the signal', async () => {
      const { fetch, calls } = fakeFetch(() => json({ success: true, data: {} }));
      const controller = new AbortController();

      await createApiClient({ fetch, headers: { authorization: 'Bearer sk_test_1' } }).get('/ready', {
        signal: controller.signal,
      });

      expect(calls).toHaveLength(1);
      expect(calls[0].url).toBe('/ready');
      expect(calls[0].init.method).toBe('GET');
      expect(calls[0].init.body).toBeUndefined();
      expect(calls[0].init.signal).toBe(controller.signal);
      expect(calls[0].init.headers).toEqual({ accept: 'application/json', authorization: 'Bearer sk_test_1' });
    });

    it('sends a JSON body with its content type', async () => {
      const { fetch, calls } = fakeFetch(() => json({ success: true, data: { id: 'cus_1' } }, 201));

      const response = await createApiClient({ fetch }).request('/api/v1/customers', {
        method: 'POST',
        body: { email: 'a@example.com' },
        headers: { 'idempotency-key': 'k1' },
      });

      expect(response.status).toBe(201);
      expect(calls[0].init.method).toBe('POST');
      expect(calls[0].init.body).toBe('{"email":"a@example.com"}');
      expect(calls[0].init.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'k1' });
    });

    it('prefixes the base URL and encodes the query, leaving out empty values', async () => {
      const { fetch, calls } = fakeFetch(() => json({ success: true, data: [] }));

      await createApiClient({ fetch, baseUrl: 'https://gw.example.com/' }).get('/api/v1/payments', {
        query: { limit: 10, cursor: undefined, status: 'succeeded', q: 'a&b', live: false, empty: null },
      });

      expect(calls[0].url).toBe('https://gw.example.com/api/v1/payments?limit=10&status=succeeded&q=a%26b&live=false');
    });
  });
});

describe('buildUrl', () => {
  it('adds a leading slash and appends to an existing query string', () => {
    expect(buildUrl('', 'health', undefined)).toBe('/health');
    expect(buildUrl('', '/x?a=1', { b: 2 })).toBe('/x?a=1&b=2');
    expect(buildUrl('', '/x', {})).toBe('/x');
  });
});
