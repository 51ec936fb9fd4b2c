import { createHmac } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { CallbackSender, signCallbackBody } from './callbacks';
import { TaskTracker } from './tasks';
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

describe('callbacks in flight at once', () => {
  /** A receiver that holds every callback until released, and notes the order they arrived in. */
  const holdingReceiver = async () => {
    const arrived: string[] = [];
    const held: Array<() => void> = [];
    const server = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        arrived.push((JSON.parse(body) as { data: { n: string } }).data.n);
        held.push(() => response.end('ok'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const releaseAll = () => held.splice(0).forEach((release) => release());
    return { url, arrived, releaseAll, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  };
  const until = async (condition: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  // With more than one in flight they start in order but travel on separate connections, so they may arrive in another.
  const arrivalOrder = (arrived: string[], concurrency: number) => (concurrency === 1 ? arrived : [...arrived].sort());

  it.each([
    [1, 1],
    [3, 3],
  ])('with concurrency %i, has %i in flight while the receiver holds them, the earliest events first', async (concurrency, inFlight) => {
    const receiver = await holdingReceiver();
    const tasks = new TaskTracker((error) => {
      throw error;
    });
    const sender = new CallbackSender({ webhookUrl: receiver.url, retryDelaysMs: [], attemptTimeoutMs: 5_000, concurrency, tasks, log: () => undefined });
    try {
      for (const n of ['1', '2', '3', '4', '5']) sender.send('sk_x', 'charge.success', { n });
      await until(() => receiver.arrived.length === inFlight);
      expect(sender.counts()).toEqual({ pending: 5, delivered: 0, failed: 0, cancelled: 0 });
      // Held: no further delivery starts while the first ones wait for their answers.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(arrivalOrder(receiver.arrived, concurrency)).toEqual(['1', '2', '3', '4', '5'].slice(0, inFlight));
      while (receiver.arrived.length < 5) {
        receiver.releaseAll();
        const seen = receiver.arrived.length;
        await until(() => receiver.arrived.length > seen || receiver.arrived.length === 5);
      }
      receiver.releaseAll();
      await tasks.idle();
      expect(arrivalOrder(receiver.arrived, concurrency)).toEqual(['1', '2', '3', '4', '5']);
      expect(sender.deliveries().map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
      expect(sender.counts()).toEqual({ pending: 0, delivered: 5, failed: 0, cancelled: 0 });
    } finally {
      receiver.releaseAll();
      await receiver.close();
    }
  });

  it('cancelling ends every delivery, 16 in flight at once (each listening on the one cancellation)', async () => {
    const receiver = await holdingReceiver();
    const tasks = new TaskTracker((error) => {
      throw error;
    });
    const sender = new CallbackSender({ webhookUrl: receiver.url, retryDelaysMs: [60_000], attemptTimeoutMs: 5_000, concurrency: 16, tasks, log: () => undefined });
    try {
      for (let n = 1; n <= 16; n++) sender.send('sk_x', 'charge.success', { n: String(n) });
      await until(() => receiver.arrived.length === 16);
      sender.cancelPending();
      await tasks.idle();
      expect(sender.counts()).toEqual({ pending: 0, delivered: 0, failed: 0, cancelled: 16 });
    } finally {
      receiver.releaseAll();
      await receiver.close();
    }
  });
});
