import { randomBytes } from 'node:crypto';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { query } from './support/db';
import { buyer, customerWithSavedCard, eventsFor, initializePayment, paidPayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

/** Idempotency on payment initialize: header, alias header, body key, and keys scoped per endpoint. */
describe('idempotent payment initialize', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  const payments = async (m: TestMerchant) => (await http(h.gateway.baseUrl, 'GET', '/api/v1/payments?limit=100', { token: m.key })).body.data as Array<{ reference: string }>;

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  beforeEach(async () => {
    merchant = await createMerchant(h.gateway);
  });
  afterAll(() => h?.close());

  it('replays the first response byte for byte for the body key, the header and the alias header alike', async () => {
    const body = { amount: 1500, email: buyer(), idempotency_key: 'init-1' };
    const first = await initializePayment(h.gateway, merchant, body);
    const again = await initializePayment(h.gateway, merchant, body);
    const { idempotency_key: _key, ...withoutKey } = body;
    const viaHeader = await initializePayment(h.gateway, merchant, withoutKey, { 'Idempotency-Key': 'init-1' });
    const viaAlias = await initializePayment(h.gateway, merchant, withoutKey, { 'X-Idempotency-Key': 'init-1' });
    expect(first.status).toBe(201);
    for (const replay of [again, viaHeader, viaAlias]) {
      expect(replay.status).toBe(201);
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await payments(merchant)).toHaveLength(1);
  });

  it('refuses the same key with a different body (422) and two different keys in one request (400)', async () => {
    await initializePayment(h.gateway, merchant, { amount: 1500, email: buyer(), idempotency_key: 'init-2' });
    const reused = await initializePayment(h.gateway, merchant, { amount: 1600, email: buyer(), idempotency_key: 'init-2' });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    const conflicting = await initializePayment(h.gateway, merchant, { amount: 1500, email: buyer(), idempotency_key: 'a' }, { 'Idempotency-Key': 'b' });
    expect([conflicting.status, conflicting.body.code]).toEqual([400, 'validation_error']);
  });

  it('creates one payment for 20 concurrent requests with one key', async () => {
    const body = { amount: 2000, email: buyer() };
    const results = await Promise.all(Array.from({ length: 20 }, () => initializePayment(h.gateway, merchant, body, { 'Idempotency-Key': 'burst' })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'idempotency_key_in_progress'))).toBe(true);
    expect(new Set(created.map((r) => r.body.data.reference)).size).toBe(1);
    expect(await payments(merchant)).toHaveLength(1);
  });

  it('keeps keys apart per endpoint, per developer and per mode', async () => {
    const key = { 'Idempotency-Key': 'shared-key' };
    const customer = await http(h.gateway.baseUrl, 'POST', '/api/v1/customers', { token: merchant.key, body: { email: buyer() }, headers: key });
    const payment = await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() }, key);
    expect([customer.status, payment.status]).toEqual([201, 201]);
    expect(payment.headers.get('idempotent-replayed')).toBeNull();

    const other = await createMerchant(h.gateway);
    const otherPayment = await initializePayment(h.gateway, other, { amount: 1000, email: buyer() }, key);
    expect(otherPayment.status).toBe(201);
    expect(otherPayment.body.data.reference).not.toBe(payment.body.data.reference);
  });

  it('does not consume the key on a refusal before the handler (validation)', async () => {
    const refused = await initializePayment(h.gateway, merchant, { amount: 'lots', email: buyer() }, { 'Idempotency-Key': 'after-fix' });
    expect(refused.status).toBe(400);
    const fixed = await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() }, { 'Idempotency-Key': 'after-fix' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  describe('a stored refusal is replayed, not run again', () => {
    const post = (path: string, body: unknown, key: string) => http(h.gateway.baseUrl, 'POST', `/api/v1${path}`, { token: merchant.key, body, headers: { 'Idempotency-Key': key } });
    const storedKeys = async (key: string) =>
      (await query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_keys WHERE developer_id = $1 AND key = $2`, [merchant.developerId, key]))[0].n;

    it('replays a 422 insufficient_wallet_balance byte for byte, even once the wallet could cover the refund', async () => {
      // 1,000 paid: 975 in the wallet, short of a full refund.
      const reference = (await paidPayment(h.gateway, merchant, { amount: 1000, email: buyer() })).body.data.reference;
      const refused = await post('/refunds', { payment_reference: reference }, 'refund-short');
      expect([refused.status, refused.body.code, refused.headers.get('idempotent-replayed')]).toEqual([422, 'insufficient_wallet_balance', null]);

      await paidPayment(h.gateway, merchant, { amount: 10000, email: buyer() });
      const replayed = await post('/refunds', { payment_reference: reference }, 'refund-short');
      expect([replayed.status, replayed.text, replayed.headers.get('idempotent-replayed')]).toEqual([422, refused.text, 'true']);
      expect(await storedKeys('refund-short')).toBe(1);
      // The same request under a new key runs, and now succeeds: the replay was the stored answer, not a re-run.
      expect((await post('/refunds', { payment_reference: reference }, 'refund-later')).status).toBe(201);
    });

    it('replays a 404 payment_not_found byte for byte', async () => {
      const missing = await post('/payments/verify', { reference: 'PAY_00000000000000000000' }, 'verify-missing');
      expect([missing.status, missing.body.code, missing.headers.get('idempotent-replayed')]).toEqual([404, 'payment_not_found', null]);
      const replayed = await post('/payments/verify', { reference: 'PAY_00000000000000000000' }, 'verify-missing');
      expect([replayed.status, replayed.text, replayed.headers.get('idempotent-replayed')]).toEqual([404, missing.text, 'true']);
      expect(await storedKeys('verify-missing')).toBe(1);
      // Another request under the key is refused: the key holds the 404.
      const reused = await post('/payments/verify', { reference: 'PAY_11111111111111111111' }, 'verify-missing');
      expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    });
  });

  describe('the payment a key stands for is per endpoint, mode and developer', () => {
    const charge = (m: Pick<TestMerchant, 'key'>, body: Record<string, unknown>, headers: Record<string, string>) =>
      http(h.gateway.baseUrl, 'POST', '/api/v1/payments/charge', { token: m.key, body, headers });

    it('initialize then charge under one key: two independent payments (the charge is charged, the checkout stays open)', async () => {
      const { merchant: m, email, code } = await customerWithSavedCard(h);
      const key = { 'Idempotency-Key': 'order-77' };
      const init = await initializePayment(h.gateway, m, { amount: 1000, email }, key);
      const charged = await charge(m, { authorization_code: code, email, amount: 1000 }, key);
      expect([init.status, charged.status]).toEqual([201, 201]);
      expect(init.body.data).toMatchObject({ status: 'pending', authorization_url: expect.any(String) });
      expect(charged.body.data).toMatchObject({ status: 'success', amount: 1000 });
      expect(charged.body.data.reference).not.toBe(init.body.data.reference);
      expect(await eventsFor(h, 'payment.success', charged.body.data.reference)).toBe(1);
    });

    it('charge then initialize under one key: two independent payments', async () => {
      const { merchant: m, email, code } = await customerWithSavedCard(h);
      const key = { 'Idempotency-Key': 'order-78' };
      const charged = await charge(m, { authorization_code: code, email, amount: 1000 }, key);
      const init = await initializePayment(h.gateway, m, { amount: 1000, email }, key);
      expect([charged.status, init.status]).toEqual([201, 201]);
      expect(charged.body.data.status).toBe('success');
      expect(init.body.data).toMatchObject({ status: 'pending', authorization_url: expect.any(String) });
      expect(init.body.data.reference).not.toBe(charged.body.data.reference);
    });

    it('the same key in test and in live mode, and for another developer: independent payments', async () => {
      const m = await createMerchant(h.gateway, { identityVerified: true });
      const live = await m.issueKey({ mode: 'live' });
      const other = await createMerchant(h.gateway);
      const key = { 'Idempotency-Key': 'order-79' };
      const body = { amount: 1000, email: buyer() };
      const results = [await initializePayment(h.gateway, m, body, key), await initializePayment(h.gateway, live, body, key), await initializePayment(h.gateway, other, body, key)];
      expect(results.map((r) => [r.status, r.body.data.status])).toEqual(Array(3).fill([201, 'pending']));
      expect(new Set(results.map((r) => r.body.data.reference)).size).toBe(3);
      expect((await http(h.gateway.baseUrl, 'GET', `/api/v1/payments/${results[1].body.data.reference}`, { token: live.key })).status).toBe(200);
      expect((await http(h.gateway.baseUrl, 'GET', `/api/v1/payments/${results[1].body.data.reference}`, { token: m.key })).status).toBe(404);
    });
  });

  describe('a retry after a provider timeout (504, not stored) must repeat the same request', () => {
    // Its own gateway with a 2 s provider timeout, so a hung provider call gives a 504 quickly, while
    // a loaded machine's ordinary provider calls never reach it.
    let slow: PaymentsHarness;
    let m: TestMerchant;
    let email: string;
    let code: string;
    let otherCode: string;
    let subaccount: string;
    const inMinutes = (minutes: number) => new Date(slow.gateway.clock.now().getTime() + minutes * 60_000).toISOString();
    const post = (path: string, body: Record<string, unknown>, key: string) =>
      http(slow.gateway.baseUrl, 'POST', `/api/v1${path}`, { token: m.key, body, headers: { 'Idempotency-Key': key } });
    /** The provider hangs on its next call (without processing it) until the gateway gives up. */
    const hangNextProviderCall = () => slow.sim.setKnobs({ timeoutNext: 1, hangMs: 5_000, timeoutMode: 'before_processing' });
    const listed = async () => (await http(slow.gateway.baseUrl, 'GET', '/api/v1/payments?limit=100', { token: m.key })).body.data as Array<{ reference: string }>;

    beforeAll(async () => {
      slow = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000' });
      ({ merchant: m, email, code } = await customerWithSavedCard(slow));
      // A second saved card of the same customer.
      const init = await initializePayment(slow.gateway, m, { amount: 1000, email });
      await http(slow.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: slow.secrets.test, body: { card: '4084084084084081' } });
      otherCode = (await post('/payments/verify', { reference: init.body.data.reference }, 'verify-second-card')).body.data.authorization.authorization_code;
      subaccount = (await post('/subaccounts', { business_name: 'Ada Ventures', bank_code: '058', account_number: '0123456789' }, 'sub-1')).body.data.code;
      expect([code, otherCode, subaccount].every(Boolean)).toBe(true);
      expect(otherCode).not.toBe(code);
    });
    afterAll(() => slow?.close());

    const checkout = () => ({ amount: 1500, email, metadata: { order: 'o-1', lines: 2 }, splits: [{ subaccount, share: 0.25 }] });
    it.each([
      ['other splits', () => ({ ...checkout(), splits: [{ subaccount, share: 0.3 }] })],
      ['no splits', () => ({ ...checkout(), splits: undefined })],
      ['other metadata', () => ({ ...checkout(), metadata: { order: 'o-2', lines: 2 } })],
      ['a callback_url', () => ({ ...checkout(), callback_url: 'https://shop.example.com/paid' })],
      ['a saved card and charge_at', () => ({ ...checkout(), authorization_code: code, charge_at: inMinutes(10) })],
    ])('initialize: the retry with %s is 422 idempotency_key_reused, and nothing else is created', async (_, changed) => {
      const key = `init-${randomBytes(4).toString('hex')}`;
      const before = (await listed()).length;
      hangNextProviderCall();
      const first = await post('/payments/initialize', checkout(), key);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      const retry = await post('/payments/initialize', changed(), key);
      expect([retry.status, retry.body.code]).toEqual([422, 'idempotency_key_reused']);
      expect(retry.body.message).toMatch(/different payment/);
      expect((await listed()).length).toBe(before + 1);
    });

    it('initialize: the same request again (keys in another order) resumes the same payment', async () => {
      const key = `init-${randomBytes(4).toString('hex')}`;
      hangNextProviderCall();
      expect((await post('/payments/initialize', checkout(), key)).status).toBe(504);
      const { metadata: _metadata, splits, ...rest } = checkout();
      const retry = await post('/payments/initialize', { splits, metadata: { lines: 2, order: 'o-1' }, ...rest, email: email.toUpperCase() }, key);
      expect(retry.status).toBe(201);
      expect(retry.body.data).toMatchObject({ status: 'pending', authorization_url: expect.any(String) });
      const payment = (await http(slow.gateway.baseUrl, 'GET', `/api/v1/payments/${retry.body.data.reference}`, { token: m.key })).body.data;
      expect(payment).toMatchObject({ amount: 1500, metadata: { order: 'o-1', lines: 2 }, splits: [{ subaccount, share: 0.25 }] });
    });

    const repeat = () => ({ authorization_code: code, email, amount: 700, metadata: { cycle: 1 } });
    it.each([
      ['other metadata', () => ({ ...repeat(), metadata: { cycle: 2 } })],
      ['splits', () => ({ ...repeat(), splits: [{ subaccount, share: 0.5 }] })],
      ['another saved card', () => ({ ...repeat(), authorization_code: otherCode })],
    ])('charge: the retry with %s is 422 idempotency_key_reused', async (_, changed) => {
      const key = `charge-${randomBytes(4).toString('hex')}`;
      hangNextProviderCall();
      const first = await post('/payments/charge', repeat(), key);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      const retry = await post('/payments/charge', changed(), key);
      expect([retry.status, retry.body.code]).toEqual([422, 'idempotency_key_reused']);
    });

    it('charge: the same request after the timeout charges the first payment, once', async () => {
      const key = `charge-${randomBytes(4).toString('hex')}`;
      hangNextProviderCall();
      expect((await post('/payments/charge', repeat(), key)).status).toBe(504);
      const before = (await listed()).length;
      const retry = await post('/payments/charge', repeat(), key);
      expect([retry.status, retry.body.data.status]).toEqual([201, 'success']);
      expect(await eventsFor(slow, 'payment.success', retry.body.data.reference)).toBe(1);
      // One payment (the timed-out request's, resumed), credited by one posting: 700 − 10 − 10.50.
      expect((await listed()).length).toBe(before);
      expect(retry.body.data).toMatchObject({ amount: 700, net_amount: 679.5 });
      const ledger = (await http(slow.gateway.baseUrl, 'GET', '/api/v1/wallet/ledger?limit=100', { token: m.key })).body.data as Array<{ type: string; amount: number; reference: string }>;
      expect(
        ledger
          .filter((e) => e.reference === retry.body.data.reference)
          .map((e) => [e.type, e.amount])
          .sort(),
      ).toEqual([
        ['credit', 700],
        ['fee', 10],
        ['fee', 10.5],
      ]);
    });
  });
});
