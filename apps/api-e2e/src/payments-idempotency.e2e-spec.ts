import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, initializePayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

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
});
