import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import type { Mode } from '@gateway/contracts';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { adapterFor, LIVE_SECRET, ngn, silenceProviderLogs, TEST_SECRET, uniqueReference } from './testing/adapter-harness';

interface Received {
  rawBody: Buffer;
  signature: string | undefined;
}

describe('PaystackHttpProvider.parseWebhook: signed provider callbacks (delivered by the simulator over HTTP)', () => {
  let sim: ProviderSimulator;
  let receiver: Server;
  let provider: PaystackHttpProvider;
  const received: Received[] = [];

  beforeAll(async () => {
    silenceProviderLogs();
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const header = request.headers['x-paystack-signature'];
        received.push({ rawBody: Buffer.concat(chunks), signature: Array.isArray(header) ? header[0] : header });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    sim = createProviderSimulator({
      secretKeys: [TEST_SECRET, LIVE_SECRET],
      transferDelayMs: 0,
      webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/provider/webhooks`,
    });
    provider = adapterFor(await sim.listen());
  });
  afterAll(async () => {
    await sim.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  /** Runs `act`, waits for the simulator's callbacks and returns those it sent meanwhile. */
  async function callbacksOf(act: () => Promise<unknown>): Promise<Received[]> {
    const before = received.length;
    await act();
    await sim.idle();
    return received.slice(before);
  }

  async function paid(mode: Mode, amount = '5000.00'): Promise<string> {
    const reference = uniqueReference('pay');
    const init = await provider.initializeTransaction(mode, { reference, email: 'ada@example.com', amount: ngn(amount), currency: 'NGN' });
    await fetch(`${init.authorizationUrl}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card=4084084084084081',
      redirect: 'manual',
    });
    return reference;
  }

  it('charge.success signed with the test secret → mode test, the transaction under our reference', async () => {
    let reference = '';
    const [callback] = await callbacksOf(async () => (reference = await paid('test', '100.10')));
    const webhook = provider.parseWebhook(callback.rawBody, callback.signature);
    expect(webhook).toMatchObject({ mode: 'test', event: 'charge.success', kind: 'charge', data: { reference, status: 'success' } });
    expect(webhook?.kind === 'charge' && webhook.data.amount.toString()).toBe('100.10');
  });

  it('charge.success signed with the live secret → mode live', async () => {
    const [callback] = await callbacksOf(() => paid('live'));
    expect(provider.parseWebhook(callback.rawBody, callback.signature)).toMatchObject({ mode: 'live', kind: 'charge' });
  });

  it('refund.processed (Paystack\'s shape: no id, a string amount) → our transaction reference, status processed, the amount', async () => {
    const reference = await paid('test', '1000.00');
    await sim.idle();
    const callbacks = await callbacksOf(() => provider.refund('test', { transactionReference: reference, amount: ngn('250.50') }));
    const webhook = provider.parseWebhook(callbacks[0].rawBody, callbacks[0].signature);
    expect(webhook).toMatchObject({ mode: 'test', event: 'refund.processed', kind: 'refund', data: { transactionReference: reference, status: 'processed', currency: 'NGN' } });
    expect(webhook?.kind === 'refund' && webhook.data.amount?.toString()).toBe('250.50');
    expect(webhook?.kind === 'refund' && webhook.data.refundReference).toMatch(/^\d+$/);
  });

  it.each([
    ['0123456789', 'transfer.success', 'success'],
    ['0000000000', 'transfer.failed', 'failed'],
  ])('a transfer to %s → %s with our reference', async (accountNumber, event, status) => {
    const recipient = await provider.createTransferRecipient('live', { name: 'Ada', accountNumber, bankCode: '058', currency: 'NGN' });
    const reference = uniqueReference('trf');
    const [callback] = await callbacksOf(() =>
      provider.initiateTransfer('live', { reference, amount: ngn('75.25'), currency: 'NGN', recipientCode: recipient.providerRecipientCode }),
    );
    expect(provider.parseWebhook(callback.rawBody, callback.signature)).toMatchObject({ mode: 'live', event, kind: 'transfer', data: { reference, status } });
  });

  it('charge.dispute.create and charge.dispute.resolve → the dispute with our transaction reference', async () => {
    const reference = await paid('test');
    await sim.idle();
    let disputeId = '';
    const [created] = await callbacksOf(async () => (disputeId = (await provider.openSandboxDispute('test', { transactionReference: reference })).providerId));
    expect(provider.parseWebhook(created.rawBody, created.signature)).toMatchObject({
      event: 'charge.dispute.create',
      kind: 'dispute',
      data: { providerId: disputeId, transactionReference: reference, status: 'open' },
    });
    const [resolved] = await callbacksOf(() => provider.resolveSandboxDispute('test', disputeId, 'declined'));
    expect(provider.parseWebhook(resolved.rawBody, resolved.signature)).toMatchObject({ event: 'charge.dispute.resolve', data: { status: 'won' } });
  });

  it('preauthorization.authorized (the simulator\'s hold checkout) → the reserved hold with the new card', async () => {
    const reference = uniqueReference('hold');
    const checkout = await provider.initializeHoldCheckout('test', { reference, email: 'new@example.com', amount: ngn('25.00'), currency: 'NGN' });
    const [authorized] = await callbacksOf(async () => {
      const page = await fetch(`${checkout.authorizationUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'card=4084084084084081' });
      await page.text();
    });
    expect(provider.parseWebhook(authorized.rawBody, authorized.signature)).toMatchObject({
      mode: 'test',
      event: 'preauthorization.authorized',
      kind: 'hold',
      data: { reference, status: 'reserved', authorization: { reusable: true } },
    });
  });

  describe('refuses what the provider did not sign', () => {
    let genuine: Received;
    beforeAll(async () => {
      [genuine] = await callbacksOf(() => paid('test'));
    });

    it('accepts the genuine callback (and an upper-case hex signature)', () => {
      expect(provider.parseWebhook(genuine.rawBody, genuine.signature)).not.toBeNull();
      expect(provider.parseWebhook(genuine.rawBody, genuine.signature?.toUpperCase())).not.toBeNull();
    });

    it('a tampered body → null', () => {
      const tampered = Buffer.from(genuine.rawBody.toString().replace('"amount":500000', '"amount":500001'));
      expect(tampered.equals(genuine.rawBody)).toBe(false);
      expect(provider.parseWebhook(tampered, genuine.signature)).toBeNull();
    });

    it('the same JSON re-serialised (not the raw bytes) → null', () => {
      const reserialised = Buffer.from(JSON.stringify(JSON.parse(genuine.rawBody.toString()), null, 1));
      expect(provider.parseWebhook(reserialised, genuine.signature)).toBeNull();
    });

    it('a missing, empty, truncated or foreign-secret signature → null', () => {
      const signature = genuine.signature as string;
      expect(provider.parseWebhook(genuine.rawBody, undefined)).toBeNull();
      expect(provider.parseWebhook(genuine.rawBody, '')).toBeNull();
      expect(provider.parseWebhook(genuine.rawBody, signature.slice(0, 64))).toBeNull();
      expect(provider.parseWebhook(genuine.rawBody, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`)).toBeNull();
      const foreign = createHmac('sha512', 'sk_test_someone_else').update(genuine.rawBody).digest('hex');
      expect(provider.parseWebhook(genuine.rawBody, foreign)).toBeNull();
    });
  });

  it('an authentic event the gateway does not act on → kind other, without a problem', () => {
    const sign = (body: string) => createHmac('sha512', TEST_SECRET).update(body).digest('hex');
    const other = '{"event":"subscription.create","data":{"id":1}}';
    expect(provider.parseWebhook(Buffer.from(other), sign(other))).toEqual({ mode: 'test', event: 'subscription.create', kind: 'other', data: null });
  });

  // Issue 12 item 3: an authentic body is acknowledged whatever its shape; throwing here answered 502 and the provider retried forever.
  it.each([
    ['not json', '', 'not JSON'],
    ['[1]', '', 'not an {event, data} object'],
    ['{"data":{}}', '', 'names no event'],
    ['{"event":"charge.dispute.create","data":{"id":7,"status":"awaiting-merchant-feedback","transaction":null}}', 'charge.dispute.create', 'dispute transaction reference'],
    ['{"event":"charge.dispute.resolve","data":{"id":7,"status":"resolved","resolution":"auto-accepted","refund_amount":null,"transaction":{"reference":"r1"}}}', 'charge.dispute.resolve', 'amount'],
    ['{"event":"transfer.success","data":"TRF_1"}', 'transfer.success', 'transfer'],
    ['{"event":"charge.success","data":{"reference":"r1","status":"success","amount":"12.5"}}', 'charge.success', ''],
  ])('an authentic body it cannot read (%s) → kind other with the problem, never a throw', (body, event, problem) => {
    const signature = createHmac('sha512', LIVE_SECRET).update(body).digest('hex');
    const webhook = provider.parseWebhook(Buffer.from(body), signature);
    expect(webhook).toMatchObject({ mode: 'live', event, kind: 'other', data: null });
    expect(webhook?.kind === 'other' && webhook.problem).toContain(problem);
  });
});
