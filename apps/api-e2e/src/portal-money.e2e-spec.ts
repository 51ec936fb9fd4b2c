import { type PortalAccount, type PortalClient, provisionAccount, signedInPlatformUser } from './support/portal-client';
import { buyer, paidPayment, type PaymentsHarness, startPaymentsHarness } from './support/payments';
import { newIdempotencyKey } from './support/idempotency-keys';

/**
 * The portal's payments, refunds, customers and wallet routes: the session's account and mode only
 * (another account's objects are missing, with the merchant API's codes), viewers read but never
 * refund, and a refund is idempotent with its Idempotency-Key.
 */
describe('portal payments, customers and wallet routes', () => {
  let h: PaymentsHarness;
  let admin: PortalClient;
  let a: PortalAccount;
  let b: PortalAccount;
  let payment: string;
  let customer: string;

  beforeAll(async () => {
    h = await startPaymentsHarness();
    admin = (await signedInPlatformUser(h.gateway)).client;
    a = await provisionAccount(h.gateway, admin);
    b = await provisionAccount(h.gateway, admin);
    const key = (await a.owner.post('/api/portal/keys', { body: { name: 'payments' } })).body.data.secret as string;
    // Two payments of 10,000 (net 9,740 each) so the wallet covers the refunds below.
    const paid = await paidPayment(h.gateway, { key }, { amount: 10000, email: buyer() });
    await paidPayment(h.gateway, { key }, { amount: 10000, email: buyer() });
    payment = paid.body.data.reference;
    customer = paid.body.data.customer_reference;
  });
  afterAll(() => h?.close());

  it('shows the account its payments, customers and wallet with the merchant API’s shapes', async () => {
    const list = await a.owner.get('/api/portal/payments?status=success&currency=NGN');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.meta).toMatchObject({ has_more: false });
    const one = await a.owner.get(`/api/portal/payments/${payment}`);
    expect(one.body.data).toMatchObject({ reference: payment, status: 'success', amount: 10000, net_amount: 9740, amount_refunded: 0, customer_reference: customer });
    expect((await a.owner.get(`/api/portal/payments?customer=${customer}`)).body.data.map((p: { reference: string }) => p.reference)).toEqual([payment]);
    expect((await a.owner.get(`/api/portal/customers/${customer}`)).body.data).toMatchObject({ reference: customer });
    expect((await a.owner.get('/api/portal/customers')).body.data).toHaveLength(2);

    const balances = await a.owner.get('/api/portal/wallet/balance');
    expect(balances.body.data.map((x: { currency: string }) => x.currency)).toEqual(['NGN', 'USD', 'GBP', 'KES']);
    expect(balances.body.data[0]).toEqual({ currency: 'NGN', available_balance: 19480, pending_balance: 0, reserved_balance: 0, total_balance: 19480 });
    const fees = await a.owner.get(`/api/portal/wallet/ledger?type=fee&reference=${payment}`);
    expect(fees.body.data).toHaveLength(2);
    expect((await a.owner.get('/api/portal/wallet/ledger?currency=XYZ')).body.code).toBe('invalid_currency');
  });

  it('lets a viewer read everything but refuses the viewer’s refund', async () => {
    const viewer = (await a.addMember('viewer')).client;
    expect((await viewer.get(`/api/portal/payments/${payment}`)).status).toBe(200);
    expect((await viewer.get('/api/portal/wallet/ledger')).status).toBe(200);
    const refused = await viewer.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 100 } });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_role']);
    expect((await a.owner.get(`/api/portal/payments/${payment}/refunds`)).body.data).toEqual([]);
  });

  it('refunds once per Idempotency-Key (a double click), and needs the CSRF token', async () => {
    const developer = (await a.addMember('developer')).client;
    const noCsrf = await developer.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 100 }, csrf: false });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'csrf_token_invalid']);

    const headers = { 'Idempotency-Key': newIdempotencyKey('portal-refund') };
    const [first, second] = await Promise.all([
      developer.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 2500.5, reason: 'damaged' }, headers }),
      developer.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 2500.5, reason: 'damaged' }, headers }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.reference).toBe(first.body.data.reference);
    expect(first.body.data).toMatchObject({ payment_reference: payment, amount: 2500.5, currency: 'NGN', reason: 'damaged' });
    const reused = await developer.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 1 }, headers });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);

    expect((await a.owner.get(`/api/portal/payments/${payment}/refunds`)).body.data).toHaveLength(1);
    expect((await a.owner.get(`/api/portal/payments/${payment}`)).body.data.amount_refunded).toBe(2500.5);
    expect((await a.owner.get(`/api/portal/refunds/${first.body.data.reference}`)).body.data.payment_reference).toBe(payment);
    const tooMuch = await a.owner.post(`/api/portal/payments/${payment}/refunds`, { body: { amount: 7499.51 } });
    expect([tooMuch.status, tooMuch.body.errors?.amount]).toEqual([400, ['must be at most 7499.50 NGN']]);
  });

  it('answers another account’s payment, refund and customer like missing ones', async () => {
    const refund = (await a.owner.get(`/api/portal/payments/${payment}/refunds`)).body.data[0]?.reference ?? 'RFD_none';
    for (const [path, code] of [
      [`/api/portal/payments/${payment}`, 'payment_not_found'],
      [`/api/portal/payments/${payment}/refunds`, 'payment_not_found'],
      [`/api/portal/refunds/${refund}`, 'refund_not_found'],
      [`/api/portal/customers/${customer}`, 'customer_not_found'],
      [`/api/portal/payments?customer=${customer}`, 'customer_not_found'],
    ]) {
      const result = await b.owner.get(path);
      expect([path, result.status, result.body.code]).toEqual([path, 404, code]);
    }
    const refundOfA = await b.owner.post(`/api/portal/payments/${payment}/refunds`, { body: {} });
    expect([refundOfA.status, refundOfA.body.code]).toEqual([404, 'payment_not_found']);
    expect((await b.owner.get('/api/portal/payments')).body.data).toEqual([]);
    expect((await b.owner.get('/api/portal/customers')).body.data).toEqual([]);
    expect((await b.owner.get('/api/portal/wallet/ledger')).body.data).toEqual([]);
    expect((await b.owner.get('/api/portal/wallet/balance')).body.data[0]).toMatchObject({ currency: 'NGN', available_balance: 0, total_balance: 0 });
  });

  it('refuses without a session', async () => {
    const anonymous = await fetch(`${h.gateway.baseUrl}/api/portal/payments`);
    expect(anonymous.status).toBe(401);
  });
});
