import { Gateway } from './client.js';
import { GatewayError, isGatewayError } from './errors.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fake gateway: `answer` decides each response; every request is recorded. */
function fakeGateway(answer: (request: Request, index: number) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request.clone());
    return answer(request, requests.length - 1);
  };
  return { requests, gateway: new Gateway({ secretKey: 'sk_test_abc', baseUrl: 'http://gateway.test:3000/', fetch, maxRetries: 0 }) };
}

describe('Gateway', () => {
  it('calls /api/v1 under the base URL with the key, and resolves to the envelope data', async () => {
    const { gateway, requests } = fakeGateway(() => json(201, { success: true, data: { reference: 'PAY-1', authorization_url: 'http://x/checkout/PAY-1', status: 'pending' } }));
    const payment = await gateway.post('/payments/initialize', { body: { amount: 5000, email: 'ada@example.com' } });
    expect(payment).toEqual({ reference: 'PAY-1', authorization_url: 'http://x/checkout/PAY-1', status: 'pending' });
    expect(requests[0].url).toBe('http://gateway.test:3000/api/v1/payments/initialize');
    expect(requests[0].headers.get('authorization')).toBe('Bearer sk_test_abc');
    expect(await requests[0].json()).toEqual({ amount: 5000, email: 'ada@example.com' });
  });

  it('fills path parameters and the query', async () => {
    const { gateway, requests } = fakeGateway(() => json(200, { success: true, data: {} }));
    await gateway.get('/payments/{reference}', { params: { path: { reference: 'PAY-1/x' } } });
    await gateway.get('/analytics/timeseries', { params: { query: { from: '2025-01-01', to: '2025-02-01' } } });
    expect(requests.map((r) => r.url)).toEqual(['http://gateway.test:3000/api/v1/payments/PAY-1%2Fx', 'http://gateway.test:3000/api/v1/analytics/timeseries?from=2025-01-01&to=2025-02-01']);
  });

  it('resolves to undefined on a 204', async () => {
    const { gateway } = fakeGateway(() => new Response(null, { status: 204 }));
    await expect(gateway.delete('/payments/{reference}/schedule', { params: { path: { reference: 'PAY-1' } } })).resolves.toBeUndefined();
  });

  it('throws a GatewayError with the code, field errors and request id of an error answer', async () => {
    const { gateway } = fakeGateway(() =>
      json(400, { success: false, code: 'validation_error', message: 'Invalid request', errors: { amount: ['must be positive'] } }, { 'x-request-id': 'req_123' }),
    );
    const error = await gateway.post('/payments/initialize', { body: { amount: -1, email: 'ada@example.com' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ name: 'GatewayError', status: 400, code: 'validation_error', message: 'Invalid request', errors: { amount: ['must be positive'] }, requestId: 'req_123' });
    expect(isGatewayError(error, 'validation_error')).toBe(true);
    expect(isGatewayError(error, 'payment_not_found')).toBe(false);
  });

  it('keeps retry_after of a 429 it did not retry', async () => {
    const { gateway } = fakeGateway(() => json(429, { success: false, code: 'rate_limit_exceeded', message: 'Too many requests', retry_after: 30 }, { 'retry-after': '30' }));
    await expect(gateway.get('/payments')).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 30 });
  });

  it('takes retryAfter from the Retry-After header when the body has no retry_after', async () => {
    const { gateway } = fakeGateway(() => json(503, { success: false, code: 'service_unavailable', message: 'Down for maintenance' }, { 'retry-after': '120' }));
    await expect(gateway.get('/payments')).rejects.toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 120 });
  });

  it('says when an error answer is not the gateway envelope (a proxy page)', async () => {
    const { gateway } = fakeGateway(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(gateway.get('/payments')).rejects.toMatchObject({ status: 502, code: 'unexpected_response' });
  });

  it('retries what the gateway asks to be retried, with the same idempotency key', async () => {
    const requests: Request[] = [];
    const gateway = new Gateway({
      secretKey: 'sk_test_abc',
      baseUrl: 'http://gateway.test',
      maxRetries: 1,
      fetch: async (request) => {
        requests.push(request);
        return requests.length === 1 ? json(503, { success: false, code: 'service_unavailable', message: 'down' }) : json(201, { success: true, data: { reference: 'PAY-1' } });
      },
    });
    await expect(gateway.post('/payments/initialize', { body: { amount: 5000, email: 'ada@example.com' } })).resolves.toEqual({ reference: 'PAY-1' });
    expect(requests).toHaveLength(2);
    expect(requests[1].headers.get('idempotency-key')).toBe(requests[0].headers.get('idempotency-key'));
  });

  describe('list', () => {
    const pages = [
      { data: [{ reference: 'PAY-5' }, { reference: 'PAY-4' }], meta: { next_cursor: 'c1', has_more: true, limit: 2 } },
      { data: [{ reference: 'PAY-3' }, { reference: 'PAY-2' }], meta: { next_cursor: 'c2', has_more: true, limit: 2 } },
      { data: [{ reference: 'PAY-1' }], meta: { next_cursor: null, has_more: false, limit: 2 } },
    ];
    const paged = () => fakeGateway((request) => json(200, { success: true, ...pages[['c1', 'c2'].indexOf(new URL(request.url).searchParams.get('cursor') ?? '') + 1] }));

    it('yields every item, page after page, keeping the filters and following next_cursor', async () => {
      const { gateway, requests } = paged();
      const references: string[] = [];
      for await (const payment of gateway.list('/payments', { query: { status: 'success', limit: 2 } })) references.push(payment.reference);
      expect(references).toEqual(['PAY-5', 'PAY-4', 'PAY-3', 'PAY-2', 'PAY-1']);
      expect(requests.map((r) => new URL(r.url).search)).toEqual(['?status=success&limit=2', '?status=success&limit=2&cursor=c1', '?status=success&limit=2&cursor=c2']);
    });

    it('fetches no further page once the loop stops', async () => {
      const { gateway, requests } = paged();
      for await (const payment of gateway.list('/payments', { query: { limit: 2 } })) if (payment.reference === 'PAY-4') break;
      expect(requests).toHaveLength(1);
    });

    it('takes path parameters, and throws the error of a page that fails', async () => {
      const { gateway, requests } = fakeGateway((_, index) => (index === 0 ? json(200, { success: true, ...pages[0] }) : json(400, { success: false, code: 'validation_error', message: 'bad cursor' })));
      const seen: string[] = [];
      const iterate = async () => {
        for await (const payment of gateway.list('/customers/{ref}/payments', { path: { ref: 'CUS_1' } })) seen.push(payment.reference);
      };
      await expect(iterate()).rejects.toMatchObject({ code: 'validation_error' });
      expect(seen).toEqual(['PAY-5', 'PAY-4']);
      expect(new URL(requests[0].url).pathname).toBe('/api/v1/customers/CUS_1/payments');
    });
  });

  describe('keys', () => {
    it('refuses a key of the wrong kind for the option it is given as', () => {
      expect(() => new Gateway({ secretKey: 'pk_test_abc', baseUrl: 'http://x' })).toThrow(/sk_test_/);
      expect(() => new Gateway({ publishableKey: 'sk_test_abc', baseUrl: 'http://x' })).toThrow(/pk_test_/);
      expect(() => new Gateway({ secretKey: '', baseUrl: 'http://x' })).toThrow(TypeError);
    });

    it('refuses a secret key in a web page, and sends a publishable key there', async () => {
      const global = globalThis as { document?: unknown };
      global.document = {};
      try {
        expect(() => new Gateway({ secretKey: 'sk_live_abc', baseUrl: 'http://x' })).toThrow(/must not be used in a browser/);
        const requests: Request[] = [];
        const gateway = new Gateway({ publishableKey: 'pk_test_abc', baseUrl: 'http://x', fetch: async (r) => (requests.push(r), json(200, { success: true, data: {} })) });
        await gateway.get('/banks');
        expect(requests[0].headers.get('authorization')).toBe('Bearer pk_test_abc');
      } finally {
        delete global.document;
      }
    });
  });
});
