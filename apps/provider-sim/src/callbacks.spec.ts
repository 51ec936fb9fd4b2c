import { createHmac } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { signCallbackBody } from './callbacks';
import { LIVE_SECRET, TEST_SECRET, initialize, payOnCheckout, startHarness, type Harness } from '../test/harness';

describe('signCallbackBody', () => {
  it('is the lowercase hex HMAC-SHA512 of the exact raw body', () => {
    const body = '{"event":"charge.success","data":{"amount":100}}';
    const expected = createHmac('sha512', 'sk_x').update(body).digest('hex');
    expect(signCallbackBody(body, 'sk_x')).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{128}$/);
    // One changed byte, or another key, gives another signature.
    expect(signCallbackBody(body.replace('100', '101'), 'sk_x')).not.toBe(expected);
    expect(signCallbackBody(body, 'sk_y')).not.toBe(expected);
  });
});

describe('callback delivery', () => {
  let harness: Harness;

  afterEach(async () => {
    await harness.close();
  });

  const paidCheckout = async (client = harness.api) => {
    const { reference, accessCode } = await initialize(client);
    await (await payOnCheckout(harness.baseUrl, accessCode, '4084084084084081')).arrayBuffer();
    return reference;
  };

  it('signs with the secret of the account the object belongs to, over the raw body received', async () => {
    harness = await startHarness();
    const testReference = await paidCheckout(harness.api);
    const liveReference = await paidCheckout(harness.live);
    await harness.sim.idle();

    const byReference = new Map(harness.receiver.events('charge.success').map((c) => [c.data['reference'], c]));
    const testCallback = byReference.get(testReference);
    const liveCallback = byReference.get(liveReference);
    expect(testCallback?.headers['content-type']).toBe('application/json');
    expect(testCallback?.headers['x-paystack-signature']).toBe(createHmac('sha512', TEST_SECRET).update(testCallback?.rawBody ?? '').digest('hex'));
    expect(liveCallback?.headers['x-paystack-signature']).toBe(createHmac('sha512', LIVE_SECRET).update(liveCallback?.rawBody ?? '').digest('hex'));
    expect(liveCallback?.headers['x-paystack-signature']).not.toBe(signCallbackBody(liveCallback?.rawBody ?? '', TEST_SECRET));
    expect(JSON.parse(testCallback?.rawBody ?? '{}')).toMatchObject({ event: 'charge.success', data: { domain: 'test' } });
    expect(JSON.parse(liveCallback?.rawBody ?? '{}')).toMatchObject({ event: 'charge.success', data: { domain: 'live' } });
  });

  it('retries a failing receiver with backoff until it accepts', async () => {
    harness = await startHarness({ callbackRetryDelaysMs: [5, 10, 20] });
    harness.receiver.failNext(2);
    const reference = await paidCheckout();
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').map((c) => c.data['reference'])).toEqual([reference]);
    expect(harness.sim.callbacks()).toEqual([
      expect.objectContaining({ event: 'charge.success', status: 'delivered', attempts: 3, lastResponseStatus: 200 }),
    ]);
  });

  it('gives up after the last retry without disturbing the simulator', async () => {
    // A port that refuses connections: bind, note it, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const logged: string[] = [];
    harness = await startHarness({
      webhookUrl: `http://127.0.0.1:${deadPort}/hook`,
      callbackRetryDelaysMs: [1, 1],
      log: (line) => logged.push(line),
    });
    const reference = await paidCheckout();
    await harness.sim.idle();
    const [delivery] = harness.sim.callbacks();
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastResponseStatus: null });
    expect(delivery.lastError).toEqual(expect.any(String));
    expect(logged).toEqual([expect.stringContaining('callback charge.success #1')]);
    expect(logged[0]).toContain('failed after 3 attempts');
    // Still serving.
    expect((await harness.api.get(`/transaction/verify/${reference}`)).data.status).toBe('success');
  });

  it('times out a receiver that never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)); // accepts TCP, never answers HTTP
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      harness = await startHarness({ webhookUrl: `http://127.0.0.1:${port}/hook`, callbackRetryDelaysMs: [], callbackTimeoutMs: 50 });
      await paidCheckout();
      await harness.sim.idle();
      expect(harness.sim.callbacks()[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(harness.sim.callbacks()[0].lastError).toMatch(/TimeoutError|abort/i);
    } finally {
      await harness.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      harness = await startHarness(); // afterEach closes this one
    }
  });

  it('sends nothing when no webhook URL is configured, until one is set', async () => {
    harness = await startHarness({ webhookUrl: undefined });
    await paidCheckout();
    await harness.sim.idle();
    expect(harness.sim.callbacks()).toEqual([]);
    expect(harness.receiver.received).toEqual([]);

    harness.sim.setWebhookUrl(harness.receiver.url);
    const reference = await paidCheckout();
    await harness.sim.idle();
    expect(harness.receiver.events('charge.success').map((c) => c.data['reference'])).toEqual([reference]);
    expect(() => harness.sim.setWebhookUrl('not a url')).toThrow(/webhookUrl/);
  });
});
