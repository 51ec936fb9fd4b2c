import { Gateway, GatewayError, isGatewayError, WebhookSignatureError, type WebhookEvent } from '@gateway/sdk';
import { join } from 'node:path';
import { type TestGateway, startGateway } from './support/gateway';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { WebhookReceiver } from './support/webhook-receiver';

/** The README's quickstart, word for word (libs/sdk's readme spec compares the two). */
const QUICKSTART = join(__dirname, '../../../libs/sdk/examples/quickstart.ts');

interface Quickstart {
  checkout(email: string): Promise<{ reference: string; authorization_url: string }>;
  printPayments(): Promise<void>;
  onWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent>;
}

/** Every request the SDK sends and every answer it gets, through the `fetch` option. */
function recordingFetch(intercept?: (request: Request, send: () => Promise<Response>) => Promise<Response>) {
  const calls: Array<{ method: string; url: URL; idempotencyKey: string | null; call: string | null; sentAt: number; status?: number; answeredAt?: number; replayed?: boolean; retryAfter?: string | null }> = [];
  const fetch = async (request: Request): Promise<Response> => {
    const call: (typeof calls)[number] = { method: request.method, url: new URL(request.url), idempotencyKey: request.headers.get('idempotency-key'), call: request.headers.get('x-test-call'), sentAt: Date.now() };
    calls.push(call);
    const send = async () => {
      const response = await globalThis.fetch(request);
      Object.assign(call, { status: response.status, answeredAt: Date.now(), replayed: response.headers.get('idempotent-replayed') === 'true', retryAfter: response.headers.get('retry-after') });
      return response;
    };
    return intercept ? intercept(request, send) : send();
  };
  return { fetch, calls };
}

describe('the TypeScript SDK against a real gateway', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  const sdk = (options: { fetch?: (r: Request) => Promise<Response>; secretKey?: string; maxRetries?: number } = {}) =>
    new Gateway({ secretKey: options.secretKey ?? merchant.key, baseUrl: h.gateway.baseUrl, fetch: options.fetch, maxRetries: options.maxRetries });

  beforeAll(async () => {
    h = await startPaymentsHarness();
    merchant = await createMerchant(h.gateway);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe("the README's quickstart", () => {
    const saved = { ...process.env };
    let quickstart: Quickstart;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = new WebhookReceiver();
      const url = await receiver.start();
      const endpoint = await sdk().post('/webhooks', { body: { url, events: ['payment.success'], webhook_version: 'v2' } });
      // What a user sets before running it: the key, where the gateway is, the endpoint's secret.
      Object.assign(process.env, { GATEWAY_SECRET_KEY: merchant.key, GATEWAY_URL: h.gateway.baseUrl, WEBHOOK_SECRET: endpoint.secret ?? '' });
      quickstart = (await import(QUICKSTART)) as Quickstart;
      await sdk().post('/webhooks/test', { body: { webhook_id: endpoint.id } });
    });
    afterAll(async () => {
      for (const name of ['GATEWAY_SECRET_KEY', 'GATEWAY_URL', 'WEBHOOK_SECRET']) if (saved[name] === undefined) delete process.env[name];
      await receiver?.close();
    });

    it('starts a payment and lists it', async () => {
      const email = buyer();
      const payment = await quickstart.checkout(email);
      expect(payment).toMatchObject({ reference: expect.stringMatching(/^PAY-/), authorization_url: expect.stringContaining(`/checkout/${payment.reference}`) });
      const printed: unknown[][] = [];
      const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
      try {
        await quickstart.printPayments();
      } finally {
        log.mockRestore();
      }
      expect(printed).toContainEqual([payment.reference, 'pending', 5000]);
    });

    it("verifies a real delivery with the endpoint's secret, and refuses it altered", async () => {
      await receiver.waitFor(1);
      const delivery = receiver.received[0];
      const headers = new Headers(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
      const event = await quickstart.onWebhook(delivery.body, headers);
      expect(event).toMatchObject({ event: 'webhook.test', id: expect.stringMatching(/^evt_/), mode: 'test', api_version: 'v2' });
      expect(event.id).toBe(delivery.headers['x-gateway-event-id']);
      await expect(quickstart.onWebhook(delivery.body.replace('webhook.test', 'payment.success'), headers)).rejects.toMatchObject({ reason: 'signature_mismatch' });
      await expect(quickstart.onWebhook(delivery.body, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError);
    });
  });

  describe('typed errors', () => {
    it('401 authentication_failed for a key the gateway does not know, with the request id', async () => {
      const error = await sdk({ secretKey: 'sk_test_not_a_real_key_0000000000' })
        .get('/payments')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ status: 401, code: 'authentication_failed', requestId: expect.stringMatching(/^req_/) });
    });

    it('404 payment_not_found for a payment that is not yours', async () => {
      const other = await createMerchant(h.gateway);
      const theirs = await sdk({ secretKey: other.key }).post('/payments/initialize', { body: { amount: 1000, email: buyer() } });
      const error = await sdk()
        .get('/payments/{reference}', { params: { path: { reference: theirs.reference } } })
        .catch((e: unknown) => e);
      expect(isGatewayError(error, 'payment_not_found')).toBe(true);
      expect(error).toMatchObject({ status: 404 });
    });

    it('400 validation_error naming each field', async () => {
      const error = await sdk()
        .post('/payments/initialize', { body: { amount: 5000, email: 'not an e-mail', callback_url: 'not a url' } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, code: 'validation_error', errors: { email: [expect.any(String)], callback_url: [expect.any(String)] } });
    });
  });

  it('retries a call whose answer was lost with the same idempotency key: one payment, the first answer replayed', async () => {
    const owner = await createMerchant(h.gateway);
    let dropped = false;
    const { fetch, calls } = recordingFetch(async (request, send) => {
      const response = await send();
      if (request.method === 'POST' && !dropped) {
        // The gateway processed the request; its answer never reaches the caller.
        dropped = true;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    });
    const email = buyer();
    const payment = await sdk({ fetch, secretKey: owner.key }).post('/payments/initialize', { body: { amount: 2500, email } });

    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.status, c.replayed])).toEqual([
      [201, false],
      [201, true],
    ]);
    expect(posts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
    const payments: string[] = [];
    for await (const p of sdk({ secretKey: owner.key }).list('/payments')) payments.push(p.reference);
    expect(payments).toEqual([payment.reference]);
  });

  it('iterates a list over several pages, newest first, one request per page', async () => {
    const owner = await createMerchant(h.gateway);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      // The harness's clock stands still unless moved: a second apart, "newest first" has one answer.
      h.gateway.clock.advance(1000);
      created.push((await sdk({ secretKey: owner.key }).post('/payments/initialize', { body: { amount: 1000 + i, email: buyer() } })).reference);
    }
    const { fetch, calls } = recordingFetch();
    const listed: string[] = [];
    for await (const p of sdk({ fetch, secretKey: owner.key }).list('/payments', { query: { limit: 2, currency: 'NGN' } })) listed.push(p.reference);
    expect(listed).toEqual([...created].reverse());
    expect(calls.map((c) => c.url.searchParams.has('cursor'))).toEqual([false, true, true]);
    expect(calls.every((c) => c.url.searchParams.get('limit') === '2' && c.url.searchParams.get('currency') === 'NGN')).toBe(true);
  });

  describe('rate limits', () => {
    let limited: TestGateway;
    beforeAll(async () => {
      // Two requests a second per test key, counted in this gateway's memory.
      limited = await startGateway({ REDIS_URL: '', RATE_LIMIT_TEST_PER_SECOND: '2', PROVIDER_TEST_BASE_URL: h.sim.url() as string, PROVIDER_TEST_SECRET_KEY: h.secrets.test });
    });
    afterAll(async () => {
      await limited?.close();
    });

    it("waits out a real 429's Retry-After and then succeeds", async () => {
      const owner = await createMerchant(limited);
      const { fetch, calls } = recordingFetch();
      const gateway = new Gateway({ secretKey: owner.key, baseUrl: limited.baseUrl, fetch, maxRetries: 5 });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => gateway.get('/customers', { headers: { 'X-Test-Call': String(i) } })));
      expect(results).toHaveLength(8);

      // Eight calls at once against two a second: some were answered 429 (all but two, unless the
      // machine was so slow that the calls spread over several seconds), and every call succeeded.
      const limitedAnswers = calls.filter((c) => c.status === 429);
      expect(limitedAnswers.length).toBeGreaterThanOrEqual(1);
      for (const answer of limitedAnswers) {
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        // The same call's next attempt was sent no sooner than its Retry-After asked.
        const next = calls.slice(calls.indexOf(answer) + 1).find((c) => c.call === answer.call);
        expect(next).toBeDefined();
        expect((next?.sentAt ?? 0) - (answer.answeredAt ?? 0)).toBeGreaterThanOrEqual(Number(answer.retryAfter) * 1000 - 2);
      }
    });
  });
});
