import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderRejectedError } from './provider-rejected.error';
import { adapterFor, ngn, silenceProviderLogs, uniqueReference } from './testing/adapter-harness';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';

type Behaviour = 'fail' | 'hang' | 'refuse' | 'ok';

/**
 * The circuit breaker in front of the provider: a run of timeouts or 5xx opens it, and while it is
 * open calls are answered at once without reaching the provider; after the cool-down one probe
 * goes through, and its success closes it. Refusals never count.
 */
describe('PaystackHttpProvider: the circuit breaker', () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour = 'ok';
  let received = 0;

  beforeAll(async () => {
    silenceProviderLogs();
    server = createServer((request, response) => {
      received++;
      request.resume();
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (behaviour === 'hang') return void setTimeout(() => json(504, { status: false, message: 'late' }), 1_000);
      if (behaviour === 'fail') return json(500, { status: false, message: 'Internal error' });
      if (behaviour === 'refuse') return json(400, { status: false, message: 'Duplicate Transaction Reference', type: 'validation_error', code: 'duplicate_reference' });
      json(200, { status: true, message: 'ok', data: { authorization_url: 'http://127.0.0.1/checkout/x', access_code: 'x', reference: 'r' } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    behaviour = 'ok';
    received = 0;
  });

  const COOL_DOWN_MS = 300;
  const adapter = (timeoutMs = 2_000) => adapterFor(url, timeoutMs, url, { breaker: { resetTimeoutMs: COOL_DOWN_MS, volumeThreshold: 5 } });
  const initialize = (provider: PaystackHttpProvider) =>
    provider.initializeTransaction('test', { reference: uniqueReference('pay'), email: 'ada@example.com', amount: ngn('10.00'), currency: 'NGN' });
  const settle = (calls: Array<Promise<unknown>>) => Promise.allSettled(calls);

  it('a 5xx storm opens it: later calls fail at once with provider_error without reaching the provider; one probe after the cool-down closes it', async () => {
    const provider = adapter();
    behaviour = 'fail';
    for (let i = 0; i < 5; i++) await expect(initialize(provider)).rejects.toMatchObject({ code: 'provider_error' });
    expect(received).toBe(5);

    const started = Date.now();
    const paused = await settle(Array.from({ length: 50 }, () => initialize(provider)));
    expect(Date.now() - started).toBeLessThan(200);
    expect(paused.every((p) => p.status === 'rejected' && (p.reason as { code: string }).code === 'provider_error')).toBe(true);
    expect(received).toBe(5); // none of the 50 was sent

    behaviour = 'ok';
    await new Promise((resolve) => setTimeout(resolve, COOL_DOWN_MS + 50)); // the cool-down is the behaviour under test
    await expect(initialize(provider)).resolves.toMatchObject({ accessCode: 'x' }); // the half-open probe
    await expect(initialize(provider)).resolves.toMatchObject({ accessCode: 'x' }); // closed again
    expect(received).toBe(7);
  });

  it('a failed probe opens it again for another cool-down', async () => {
    const provider = adapter();
    behaviour = 'fail';
    await settle(Array.from({ length: 5 }, () => initialize(provider)));
    await new Promise((resolve) => setTimeout(resolve, COOL_DOWN_MS + 50));
    await expect(initialize(provider)).rejects.toMatchObject({ code: 'provider_error' }); // the probe, sent
    expect(received).toBe(6);
    await expect(initialize(provider)).rejects.toMatchObject({ code: 'provider_error' }); // open again: not sent
    expect(received).toBe(6);
  });

  it('timeouts open it too: callers stop waiting the whole timeout each', async () => {
    const provider = adapter(100);
    behaviour = 'hang';
    for (let i = 0; i < 5; i++) await expect(initialize(provider)).rejects.toMatchObject({ code: 'gateway_timeout' });
    const started = Date.now();
    await expect(initialize(provider)).rejects.toMatchObject({ code: 'provider_error' });
    expect(Date.now() - started).toBeLessThan(50);
    expect(received).toBe(5);
  });

  it('refusals (a 4xx the provider explains) are answers: they never open it', async () => {
    const provider = adapter();
    behaviour = 'refuse';
    const answers = await settle(Array.from({ length: 30 }, () => initialize(provider)));
    expect(answers.every((a) => a.status === 'rejected' && a.reason instanceof ProviderRejectedError)).toBe(true);
    expect(received).toBe(30);
  });

  it('each mode has its own: a failing test-mode account leaves live mode alone', async () => {
    const provider = adapter();
    behaviour = 'fail';
    await settle(Array.from({ length: 5 }, () => initialize(provider)));
    behaviour = 'ok';
    await expect(initialize(provider)).rejects.toMatchObject({ code: 'provider_error' });
    await expect(provider.initializeTransaction('live', { reference: uniqueReference('pay'), email: 'ada@example.com', amount: ngn('10.00'), currency: 'NGN' })).resolves.toMatchObject({
      accessCode: 'x',
    });
  });
});
