import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { DomainError } from '@gateway/platform';
import { ProviderRejectedError } from './provider-rejected.error';
import { adapterFor, LIVE_SECRET, ngn, silenceProviderLogs, simulatorAccount, TEST_SECRET, uniqueReference } from './testing/adapter-harness';
import { PaystackHttpProvider } from './paystack/paystack-http.provider';

describe('PaystackHttpProvider: transport failures map to the gateway error codes', () => {
  let sim: ProviderSimulator;
  let baseUrl: string;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0, hangMs: 1_500 });
    baseUrl = await sim.listen();
  });
  afterEach(() => sim.setKnobs({ timeoutNext: 0, failNext: 0, timeoutMode: 'before_processing' }));
  afterAll(() => sim.close());

  const initialize = (provider: PaystackHttpProvider, reference = uniqueReference('pay')) =>
    provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('1000.00'), currency: 'NGN' });

  it('no answer within the timeout (timeout_next) → gateway_timeout, after about the timeout, not the hang', async () => {
    const provider = adapterFor(baseUrl, 300);
    sim.setKnobs({ timeoutNext: 1 });
    const started = Date.now();
    const attempt = initialize(provider);
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'gateway_timeout' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1_400);
  });

  it('a call processed but answered late: the retry with the same reference finds the same transaction (money moves once)', async () => {
    const provider = adapterFor(baseUrl, 300);
    const reference = uniqueReference('pay');
    sim.setKnobs({ timeoutNext: 1, timeoutMode: 'after_processing' });
    await expect(initialize(provider, reference)).rejects.toMatchObject({ code: 'gateway_timeout' });
    const retry = await initialize(provider, reference);
    expect(retry.accessCode).toMatch(/\S/);
    const transaction = await provider.verifyTransaction('test', reference);
    expect(transaction?.amount.toString()).toBe('1000.00');
  });

  it('a charge processed but answered late: the retry is refused as a duplicate by the provider, and answers the first charge', async () => {
    const provider = adapterFor(baseUrl, 300);
    const reference = uniqueReference('pay');
    const checkout = await initialize(provider, reference);
    const paid = await fetch(`${checkout.authorizationUrl}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card: '4084084084084081' }).toString(),
      redirect: 'manual',
    });
    await paid.text();
    const authorizationCode = (await provider.verifyTransaction('test', reference))?.authorization?.code as string;
    const charge = { reference: uniqueReference('chg'), authorizationCode, email: 'ada@example.com', amount: ngn('700.00'), currency: 'NGN' as const };

    sim.setKnobs({ timeoutNext: 1, timeoutMode: 'after_processing' });
    await expect(provider.chargeAuthorization('test', charge)).rejects.toMatchObject({ code: 'gateway_timeout' });
    const retry = await provider.chargeAuthorization('test', charge);
    expect(retry).toMatchObject({ reference: charge.reference, status: 'success' });
    expect(retry.amount.toString()).toBe('700.00');
  });

  it('a 5xx (fail_next) → provider_error, and the next call goes through', async () => {
    const provider = adapterFor(baseUrl);
    sim.setKnobs({ failNext: 1 });
    const reference = uniqueReference('pay');
    const attempt = initialize(provider, reference);
    await expect(attempt).rejects.toMatchObject({ code: 'provider_error' });
    await expect(attempt).rejects.not.toBeInstanceOf(ProviderRejectedError);
    expect(await provider.verifyTransaction('test', reference)).toBeNull(); // never processed
    await expect(initialize(provider, reference)).resolves.toMatchObject({ accessCode: expect.any(String) });
  });

  it('connection refused → provider_error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(initialize(adapterFor(`http://127.0.0.1:${port}`))).rejects.toMatchObject({ code: 'provider_error' });
  });

  it('headers in time but the body stalls → gateway_timeout after about the timeout (the timeout covers the body too)', async () => {
    const stalled = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      response.write('{"status":true,"data":'); // …and nothing more
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      await expect(initialize(adapterFor(`http://127.0.0.1:${(stalled.address() as AddressInfo).port}`, 300))).rejects.toMatchObject({ code: 'gateway_timeout' });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(280);
      expect(elapsed).toBeLessThan(1_400);
    } finally {
      stalled.closeAllConnections();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
    }
  });

  it('our secret refused (401) → provider_error, not a rejection the merchant could act on', async () => {
    const provider = new PaystackHttpProvider({
      accounts: { test: simulatorAccount(baseUrl, 'sk_test_wrong'), live: simulatorAccount(baseUrl, LIVE_SECRET) },
      timeoutMs: 5_000,
    });
    const attempt = initialize(provider);
    await expect(attempt).rejects.toMatchObject({ code: 'provider_error' });
    await expect(attempt).rejects.not.toBeInstanceOf(ProviderRejectedError);
  });

  describe('answers that are not the provider envelope', () => {
    let server: Server;
    let url: string;
    let answer: { status: number; body: string };

    beforeAll(async () => {
      server = createServer((_request, response) => response.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.body));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it.each([
      [200, '<html>maintenance</html>'],
      [200, '{"status":true,"data":{"authorization_url":42}}'],
      [400, '<html>bad request</html>'],
      [502, '<html>bad gateway</html>'],
    ])('HTTP %i with %s → provider_error', async (status, body) => {
      answer = { status, body };
      const attempt = initialize(adapterFor(url));
      await expect(attempt).rejects.toMatchObject({ code: 'provider_error' });
      await expect(attempt).rejects.not.toBeInstanceOf(ProviderRejectedError);
    });
  });

  it('never logs a secret, a body, an e-mail or a provider id', async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    };
    const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) => jest.spyOn(Logger.prototype, level).mockImplementation(capture));
    try {
      const provider = adapterFor(baseUrl, 300);
      const init = await initialize(provider);
      await provider.chargeAuthorization('test', { reference: uniqueReference('chg'), authorizationCode: 'AUTH_secretish', email: 'ada@example.com', amount: ngn('1.00'), currency: 'NGN' }).catch(() => undefined);
      sim.setKnobs({ failNext: 1 });
      await initialize(provider).catch(() => undefined);
      sim.setKnobs({ timeoutNext: 1 });
      await initialize(provider).catch(() => undefined);
      await initialize(adapterFor('http://127.0.0.1:9')).catch(() => undefined);

      expect(lines.length).toBeGreaterThanOrEqual(4);
      const all = lines.join('\n');
      for (const forbidden of [TEST_SECRET, LIVE_SECRET, 'Bearer', 'ada@example.com', 'AUTH_', init.accessCode, '100000', 'authorization_url']) {
        expect(all).not.toContain(forbidden);
      }
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });
});
