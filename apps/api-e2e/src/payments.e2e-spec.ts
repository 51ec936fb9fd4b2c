import { Amount } from '@gateway/platform';
import { DevelopersService } from '@gateway/domain/developers';
import { PaymentProvider } from '@gateway/provider';
import { signCallbackBody } from '@gateway/provider-sim';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { waitFor } from './support/wait';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, initializePayment, paidPayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('payments: initialize, checkout, verify, fees and the wallet', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  const api = (method: string, path: string, body?: unknown, m: Pick<TestMerchant, 'key'> = merchant, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const balance = async (m: Pick<TestMerchant, 'key'> = merchant, currency = 'NGN') => (await api('GET', `/wallet/balance?currency=${currency}`, undefined, m)).body.data;
  const eventsNamed = async (name: string, reference: string) =>
    (await h.gateway.app.get(DataSource).query(`SELECT id FROM events WHERE name = $1 AND data->>'reference' = $2`, [name, reference])) as unknown[];

  beforeAll(async () => {
    h = await startPaymentsHarness();
    merchant = await createMerchant(h.gateway);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('initialize', () => {
    it('returns a reference and a gateway checkout URL, and creates the customer by e-mail', async () => {
      const email = buyer();
      const res = await initializePayment(h.gateway, merchant, { amount: 5000, email, metadata: { order: 'ord_1' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ reference: expect.stringMatching(/^PAY-[0-9a-f]{20}$/), authorization_url: expect.any(String), status: 'pending' });
      expect(res.body.data.authorization_url).toMatch(new RegExp(`/checkout/${res.body.data.reference}$`));
      expect(res.text).not.toMatch(/access_code|ACCESS_|127\.0\.0\.1:\d+\/checkout\/(?!PAY-)/);

      const payment = (await api('GET', `/payments/${res.body.data.reference}`)).body.data;
      expect(payment).toMatchObject({ status: 'pending', amount: 5000, currency: 'NGN', net_amount: null, amount_refunded: 0, email, metadata: { order: 'ord_1' } });
      const customers = (await api('GET', `/customers?email=${encodeURIComponent(email)}`)).body.data;
      expect(customers).toHaveLength(1);
      expect(payment.customer_reference).toBe(customers[0].reference);
      expect(await eventsNamed('customer.created', customers[0].reference)).toHaveLength(1);
    });

    it('sends the customer from the gateway checkout URL to the hosted checkout, until the payment is settled', async () => {
      const init = await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer() });
      const open = await fetch(init.body.data.authorization_url.replace(/^https?:\/\/[^/]+/, h.gateway.baseUrl), { redirect: 'manual' });
      expect(open.status).toBe(302);
      expect(open.headers.get('location')).toContain(h.sim.url());
      await api('POST', `/sandbox/payments/${init.body.data.reference}/complete`, { outcome: 'success' });
      const closed = await fetch(`${h.gateway.baseUrl}/checkout/${init.body.data.reference}`, { redirect: 'manual' });
      expect(closed.status).toBe(404);
    });

    it.each([
      ['no amount', { email: 'a@example.com' }, 'amount'],
      ['a zero amount', { amount: 0, email: 'a@example.com' }, 'amount'],
      ['a negative amount', { amount: -5, email: 'a@example.com' }, 'amount'],
      ['three decimals', { amount: 100.123, email: 'a@example.com' }, 'amount'],
      ['an amount under the NGN minimum', { amount: 99.99, email: 'a@example.com' }, 'amount'],
      ['an amount over the maximum', { amount: 100000000.01, email: 'a@example.com' }, 'amount'],
      ['an amount as a string', { amount: '1000', email: 'a@example.com' }, 'amount'],
      ['a bad e-mail', { amount: 1000, email: 'not-an-email' }, 'email'],
      ['a bad callback_url', { amount: 1000, email: 'a@example.com', callback_url: 'javascript:alert(1)' }, 'callback_url'],
      ['metadata that is not an object', { amount: 1000, email: 'a@example.com', metadata: 'x' }, 'metadata'],
      ['an unknown field', { amount: 1000, email: 'a@example.com', amount_in_kobo: 100000 }, 'amount_in_kobo'],
      ['a share with 5 decimals', { amount: 1000, email: 'a@example.com', splits: [{ subaccount: 'ACCT_x', share: 0.12345 }] }, 'splits.0.share'],
      ['a zero share', { amount: 1000, email: 'a@example.com', splits: [{ subaccount: 'ACCT_x', share: 0 }] }, 'splits.0.share'],
      ['an unknown sub-account', { amount: 1000, email: 'a@example.com', splits: [{ subaccount: 'ACCT_unknown00', share: 0.5 }] }, 'splits.0.subaccount'],
      ['charge_at without authorization_code', { amount: 1000, email: 'a@example.com', charge_at: '2099-01-01T00:00:00Z' }, 'authorization_code'],
      ['authorization_code without charge_at', { amount: 1000, email: 'a@example.com', authorization_code: 'AUTH_abc' }, 'charge_at'],
    ])('refuses %s with validation_error naming the field', async (_, body, field) => {
      const res = await initializePayment(h.gateway, merchant, body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('refuses an unsupported currency with invalid_currency', async () => {
      const res = await initializePayment(h.gateway, merchant, { amount: 1000, email: 'a@example.com', currency: 'EUR' });
      expect([res.status, res.body.code, res.body.success]).toEqual([400, 'invalid_currency', false]);
    });

    it('refuses split shares above 1.0 in total with split_shares_exceed_total', async () => {
      const res = await initializePayment(h.gateway, merchant, {
        amount: 1000,
        email: 'a@example.com',
        splits: [
          { subaccount: 'ACCT_a', share: 0.6 },
          { subaccount: 'ACCT_b', share: 0.4001 },
        ],
      });
      expect([res.status, res.body.code]).toEqual([400, 'split_shares_exceed_total']);
    });

    it('refuses charge_at in the past or under 60 s ahead with invalid_charge_at', async () => {
      const now = h.gateway.clock.now().getTime();
      for (const at of [new Date(now - 1000), new Date(now + 30_000), new Date(now + 60_000)]) {
        const res = await initializePayment(h.gateway, merchant, { amount: 1000, email: 'a@example.com', authorization_code: 'AUTH_abc', charge_at: at.toISOString() });
        expect([at.toISOString(), res.status, res.body.code]).toEqual([at.toISOString(), 400, 'invalid_charge_at']);
      }
    });

    it('refuses a bad charge_at with invalid_charge_at even without authorization_code: the date itself is the problem', async () => {
      const now = h.gateway.clock.now().getTime();
      for (const at of [new Date(now - 1000).toISOString(), new Date(now + 30_000).toISOString(), '2099-01-01T00:00:00+01:00']) {
        const res = await initializePayment(h.gateway, merchant, { amount: 1000, email: 'a@example.com', charge_at: at });
        expect([at, res.status, res.body.code]).toEqual([at, 400, 'invalid_charge_at']);
      }
    });

    it('creates nothing when it refuses', async () => {
      const email = buyer();
      await initializePayment(h.gateway, merchant, { amount: 1000, email, currency: 'EUR' });
      expect((await api('GET', `/customers?email=${encodeURIComponent(email)}`)).body.data).toHaveLength(0);
    });
  });

  describe('verify and the ledger', () => {
    it('credits 10,000.00 NGN net of the 10 NGN platform fee and the provider fee, with each fee ledgered', async () => {
      const m = await createMerchant(h.gateway);
      const res = await paidPayment(h.gateway, m, { amount: 10000, email: buyer() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'success', amount: 10000, net_amount: 9740, fees: { platform: 10, provider: 250 } });
      expect(res.body.data.authorization).toMatchObject({ authorization_code: expect.stringMatching(/^AUTH_/), reusable: true, last4: '4081' });

      const verified = await api('POST', '/payments/verify', { reference: res.body.data.reference }, m);
      expect(verified.body.data).toMatchObject({ status: 'success', amount: 10000, net_amount: 9740 });
      expect(await balance(m)).toMatchObject({ available_balance: 9740, total_balance: 9740, currency: 'NGN' });
      const ledger = (await api('GET', '/wallet/ledger', undefined, m)).body.data;
      expect(ledger.map((e: { type: string; amount: number; reference: string }) => [e.type, e.amount, e.reference]).sort()).toEqual(
        [
          ['credit', 10000, res.body.data.reference],
          ['fee', 10, res.body.data.reference],
          ['fee', 250, res.body.data.reference],
        ].sort(),
      );
      expect(await eventsNamed('payment.success', res.body.data.reference)).toHaveLength(1);
    });

    it('keeps every cent of 100.10 and of 99,999,999.99', async () => {
      const m = await createMerchant(h.gateway);
      const small = await paidPayment(h.gateway, m, { amount: 100.1, email: buyer() });
      expect(small.body.data).toMatchObject({ amount: 100.1, net_amount: 88.6, fees: { platform: 10, provider: 1.5 } });
      const large = await paidPayment(h.gateway, m, { amount: 99999999.99, email: buyer() });
      expect(large.body.data).toMatchObject({ amount: 99999999.99, net_amount: 99997989.99, fees: { platform: 10, provider: 2000 } });
      expect((await balance(m)).available_balance).toBe(99998078.59);
    });

    it("applies the administrator's fee override, including zero", async () => {
      const m = await createMerchant(h.gateway);
      await h.gateway.app.get(DevelopersService, { strict: false }).setFeeOverride(m.developerId, 'NGN', Amount.zero());
      const res = await paidPayment(h.gateway, m, { amount: 2000, email: buyer() });
      expect(res.body.data).toMatchObject({ net_amount: 1970, fees: { platform: 0, provider: 30 } });
      expect((await api('GET', '/wallet/ledger', undefined, m)).body.data.filter((e: { type: string }) => e.type === 'fee')).toHaveLength(1);
    });

    it('credits once however many verifies race, with the provider callback racing them too', async () => {
      const m = await createMerchant(h.gateway);
      const init = await initializePayment(h.gateway, m, { amount: 3000, email: buyer() });
      const reference = init.body.data.reference;
      // Paying makes the simulator send its signed charge.success callback while we verify.
      await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: { outcome: 'success' } });
      const results = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/payments/verify', { reference }, m)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      await h.sim.idle();
      expect(h.sim.callbacks().some((c) => c.event === 'charge.success')).toBe(true);
      // 3,000 − 10 − (45 + 100)
      expect((await balance(m)).available_balance).toBe(2845);
      expect((await api('GET', '/wallet/ledger', undefined, m)).body.data).toHaveLength(3);
      expect(await eventsNamed('payment.success', reference)).toHaveLength(1);
    });

    it('marks a declined payment failed with payment.failed, and credits nothing', async () => {
      const m = await createMerchant(h.gateway);
      const res = await paidPayment(h.gateway, m, { amount: 1500, email: buyer() }, 'declined');
      expect(res.body.data).toMatchObject({ status: 'failed', net_amount: null, gateway_response: 'Declined' });
      expect(await eventsNamed('payment.failed', res.body.data.reference)).toHaveLength(1);
      expect((await balance(m)).available_balance).toBe(0);
    });

    it('shares a payment with sub-accounts, ledgering each share and keeping the remainder', async () => {
      const m = await createMerchant(h.gateway);
      const sub = await api('POST', '/subaccounts', { business_name: 'Ada Ventures', bank_code: '058', account_number: '0123456789' }, m);
      expect(sub.status).toBe(201);
      const code = sub.body.data.code;
      const res = await paidPayment(h.gateway, m, { amount: 10000, email: buyer(), splits: [{ subaccount: code, share: 0.3333 }] });
      expect(res.body.data.splits).toEqual([{ subaccount: code, share: 0.3333, amount: 3333 }]);
      // 10,000 − 10 − 250 − 3,333
      expect((await balance(m)).available_balance).toBe(6407);
      const debit = (await api('GET', '/wallet/ledger?type=debit', undefined, m)).body.data;
      expect(debit).toMatchObject([{ type: 'debit', amount: 3333 }]);
    });

    it('refuses a sub-account of another merchant', async () => {
      const other = await createMerchant(h.gateway);
      const sub = await api('POST', '/subaccounts', { business_name: 'Other', bank_code: '058', account_number: '0123456780' }, other);
      const res = await initializePayment(h.gateway, merchant, { amount: 1000, email: buyer(), splits: [{ subaccount: sub.body.data.code, share: 0.5 }] });
      expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 'validation_error', ['splits.0.subaccount']]);
    });
  });

  describe('request validation of verify and lists', () => {
    it.each([
      ['no reference', {}],
      ['an empty reference', { reference: '' }],
      ['a reference that is not a string', { reference: 42 }],
    ])('refuses a verify with %s: 400 validation_error naming reference', async (_, body) => {
      const res = await api('POST', '/payments/verify', body);
      expect([res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([400, 'validation_error', ['reference']]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('2024-01-01T00:00:00.000Z|x').toString('base64url')}`, 'cursor'],
    ])('refuses GET /payments?%s: 400 validation_error naming it', async (query, field) => {
      const res = await api('GET', `/payments?${query}`);
      expect([res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([400, 'validation_error', [field]]);
    });
  });

  describe('tenancy', () => {
    it("answers another merchant's and the other mode's payment exactly like a missing one", async () => {
      const owner = await createMerchant(h.gateway, { identityVerified: true });
      const reference = (await initializePayment(h.gateway, owner, { amount: 1000, email: buyer() })).body.data.reference;
      const otherMerchant = await createMerchant(h.gateway);
      const ownerLive = await owner.issueKey({ mode: 'live' });
      const missing = await api('GET', '/payments/PAY_00000000000000000000', undefined, otherMerchant);
      expect([missing.status, missing.body.code]).toEqual([404, 'payment_not_found']);
      for (const key of [otherMerchant.key, ownerLive.key]) {
        const got = await api('GET', `/payments/${reference}`, undefined, { key });
        expect([got.status, got.body]).toEqual([404, missing.body]);
        const verify = await api('POST', '/payments/verify', { reference }, { key });
        expect([verify.status, verify.body.code]).toEqual([404, 'payment_not_found']);
      }
      const otherSandbox = await api('POST', `/sandbox/payments/${reference}/complete`, {}, otherMerchant);
      expect([otherSandbox.status, otherSandbox.body.code]).toEqual([404, 'payment_not_found']);
      const liveSandbox = await api('POST', `/sandbox/payments/${reference}/complete`, {}, { key: ownerLive.key });
      expect([liveSandbox.status, liveSandbox.body.code]).toEqual([403, 'test_mode_required']);
      expect((await api('GET', `/payments/${reference}`, undefined, owner)).body.data.status).toBe('pending');
    });

    it('keeps sandbox controls to test keys', async () => {
      const live = await createMerchant(h.gateway, { identityVerified: true, mode: 'live' });
      const res = await api('POST', '/sandbox/scans/abandoned-payments/run', {}, live);
      expect([res.status, res.body.code]).toEqual([403, 'test_mode_required']);
    });
  });

  describe('lists', () => {
    it('pages through payments newest first with no gap or duplicate while payments are being created', async () => {
      const m = await createMerchant(h.gateway);
      const created: string[] = [];
      for (let i = 0; i < 7; i++) {
        h.gateway.clock.advance(1000);
        created.push((await initializePayment(h.gateway, m, { amount: 100 + i, email: buyer() })).body.data.reference);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof api>> = await api('GET', `/payments?limit=3${cursor ? `&cursor=${cursor}` : ''}`, undefined, m);
        expect(page.body.meta.limit).toBe(3);
        seen.push(...page.body.data.map((p: { reference: string }) => p.reference));
        cursor = page.body.meta.next_cursor;
        // A payment created mid-listing is newer than the cursor: it never shifts the pages.
        h.gateway.clock.advance(1000);
        await initializePayment(h.gateway, m, { amount: 200, email: buyer() });
      } while (cursor);
      expect(seen).toEqual([...created].reverse());
    });

    it('filters by status and currency, and lists a customer history with a status filter', async () => {
      const m = await createMerchant(h.gateway);
      const email = buyer();
      const paid = await paidPayment(h.gateway, m, { amount: 1000, email });
      await paidPayment(h.gateway, m, { amount: 1000, email }, 'declined');
      await initializePayment(h.gateway, m, { amount: 10, email, currency: 'USD' });
      const succeeded = (await api('GET', '/payments?status=success', undefined, m)).body.data;
      expect(succeeded.map((p: { reference: string }) => p.reference)).toEqual([paid.body.data.reference]);
      expect((await api('GET', '/payments?currency=USD', undefined, m)).body.data).toHaveLength(1);
      expect((await api('GET', '/payments?currency=EUR', undefined, m)).body.code).toBe('invalid_currency');
      expect((await api('GET', '/payments?status=paid', undefined, m)).body.code).toBe('validation_error');

      const customer = paid.body.data.customer_reference;
      expect((await api('GET', `/customers/${customer}/payments`, undefined, m)).body.data).toHaveLength(3);
      expect((await api('GET', `/customers/${customer}/payments?status=failed`, undefined, m)).body.data).toHaveLength(1);
      expect((await api('GET', `/customers/${customer}/payments`, undefined, merchant)).body.code).toBe('customer_not_found');
    });
  });

  describe('list filters customer, from and to', () => {
    it('filters by customer reference, from (inclusive) and to (exclusive), alone and together', async () => {
      const m = await createMerchant(h.gateway);
      const [ada, bola] = [buyer(), buyer()];
      const made: Array<{ reference: string; createdAt: string; customer: string }> = [];
      for (const email of [ada, bola, ada, bola]) {
        h.gateway.clock.advance(1000);
        const reference = (await initializePayment(h.gateway, m, { amount: 1000, email })).body.data.reference;
        const payment = (await api('GET', `/payments/${reference}`, undefined, m)).body.data;
        made.push({ reference, createdAt: payment.created_at, customer: payment.customer_reference });
      }
      const [p1, p2, p3, p4] = made;
      expect(p1.customer).toBe(p3.customer);
      expect(p1.customer).not.toBe(p2.customer);
      const listed = async (query: string) => {
        const res = await api('GET', `/payments?limit=100&${query}`, undefined, m);
        expect([query, res.status]).toEqual([query, 200]);
        return res.body.data.map((p: { reference: string }) => p.reference);
      };
      const at = (p: { createdAt: string }) => encodeURIComponent(p.createdAt);

      expect(await listed(`customer=${p1.customer}`)).toEqual([p3.reference, p1.reference]);
      expect(await listed(`customer=${p2.customer}`)).toEqual([p4.reference, p2.reference]);
      expect(await listed(`from=${at(p2)}`)).toEqual([p4.reference, p3.reference, p2.reference]);
      expect(await listed(`to=${at(p3)}`)).toEqual([p2.reference, p1.reference]);
      expect(await listed(`from=${at(p2)}&to=${at(p4)}`)).toEqual([p3.reference, p2.reference]);
      expect(await listed(`customer=${p1.customer}&from=${at(p2)}`)).toEqual([p3.reference]);
      expect(await listed(`customer=${p2.customer}&to=${at(p4)}`)).toEqual([p2.reference]);
      expect(await listed(`from=${at(p3)}&to=${at(p3)}`)).toEqual([]);
      // Another merchant's customer is answered exactly like a missing one.
      const other = await createMerchant(h.gateway);
      const theirs = (await api('GET', `/payments/${(await initializePayment(h.gateway, other, { amount: 1000, email: ada })).body.data.reference}`, undefined, other)).body.data;
      const foreign = await api('GET', `/payments?customer=${theirs.customer_reference}`, undefined, m);
      const missing = await api('GET', '/payments?customer=CUS_0000000000000000', undefined, m);
      expect([foreign.status, foreign.body.code]).toEqual([404, 'customer_not_found']);
      expect([missing.status, missing.body]).toEqual([404, foreign.body]);

      const bad = await api('GET', '/payments?from=yesterday', undefined, m);
      expect([bad.status, bad.body.code, Object.keys(bad.body.errors ?? {})]).toEqual([400, 'validation_error', ['from']]);
    });
  });

  describe('abandonment', () => {
    it('abandons payments unpaid after 24 h (sandbox scan), and a late payment is still credited', async () => {
      const m = await createMerchant(h.gateway);
      const init = await initializePayment(h.gateway, m, { amount: 1000, email: buyer() });
      const early = await api('POST', '/sandbox/scans/abandoned-payments/run', {}, m);
      expect(early.body.data).toEqual({ scan: 'abandoned-payments', affected: 0 });
      const asOf = new Date(h.gateway.clock.now().getTime() + 25 * 3_600_000).toISOString();
      const later = await api('POST', '/sandbox/scans/abandoned-payments/run', { as_of: asOf }, m);
      expect(later.body.data.affected).toBe(1);
      expect((await api('GET', `/payments/${init.body.data.reference}`, undefined, m)).body.data.status).toBe('abandoned');

      await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.test, body: {} });
      const verified = await api('POST', '/payments/verify', { reference: init.body.data.reference }, m);
      expect(verified.body.data.status).toBe('success');
    });
  });

  describe('provider callbacks', () => {
    it('refuses a callback whose signature matches no mode', async () => {
      const res = await http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', {
        body: { event: 'charge.success', data: { reference: 'PAY_x' } },
        headers: { 'x-paystack-signature': 'f'.repeat(128) },
      });
      expect([res.status, res.body.code]).toEqual([403, 'invalid_signature']);
    });

    it('credits a payment from the callback alone, without a verify', async () => {
      const m = await createMerchant(h.gateway);
      const init = await initializePayment(h.gateway, m, { amount: 2500, email: buyer() });
      await http(h.sim.url() as string, 'POST', `/sim/transactions/${init.body.data.reference}/complete`, { token: h.secrets.test, body: {} });
      await h.sim.idle();
      const got = (await api('GET', `/payments/${init.body.data.reference}`, undefined, m)).body.data;
      // 2,500 − 10 − (37.50 + 100)
      expect(got).toMatchObject({ status: 'success', net_amount: 2352.5 });
    });

    // Issue 12 item 5: Paystack's verify then answers `amount` = requested + fees and `requested_amount` = requested.
    it('credits once, at the requested amount, a payment whose customer bore the provider fees', async () => {
      const m = await createMerchant(h.gateway);
      h.sim.setKnobs({ customerBearsFees: true });
      let reference: string;
      try {
        reference = (await paidPayment(h.gateway, m, { amount: 2500, email: buyer() })).body.data.reference as string;
        await h.sim.idle();
      } finally {
        h.sim.setKnobs({ customerBearsFees: false });
      }
      const wire = (await http(h.sim.url() as string, 'GET', `/transaction/verify/${reference}`, { token: h.secrets.test })).body.data;
      expect([wire.amount, wire.requested_amount, wire.fees]).toEqual([263750, 250000, 13750]);
      const verified = await api('POST', '/payments/verify', { reference }, m);
      // 2,500 − 10 platform fee; the provider's 137.50 was paid by the customer on top.
      expect(verified.body.data).toMatchObject({ status: 'success', amount: 2500, net_amount: 2490 });
      expect((await balance(m)).available_balance).toBe(2490);
      expect(await eventsNamed('payment.success', reference)).toHaveLength(1);
    });

    // Issue 12 item 3: refusing an authentic callback only makes the provider deliver it again forever.
    it.each([
      ['an unknown event', { event: 'subscription.create', data: { id: 1 } }],
      ['a dispute resolved auto-accepted with a null refund_amount and camelCase times', { event: 'charge.dispute.resolve', data: { id: 9, status: 'resolved', resolution: 'auto-accepted', refund_amount: null, currency: null, transaction: { reference: 'PAY_elsewhere', amount: 5800, currency: 'NGN' }, transaction_reference: null, dueAt: null, resolvedAt: '2020-11-24T14:00:02.000Z' } }],
      ['a dispute whose transaction is missing', { event: 'charge.dispute.create', data: { id: 10, status: 'awaiting-merchant-feedback', transaction: null } }],
      ['a transfer event without data', { event: 'transfer.success' }],
      ['a body that is not an event', [1, 2, 3]],
    ])('acknowledges (200) %s, signed but not acted on', async (_what, payload) => {
      const rawBody = JSON.stringify(payload);
      const res = await http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': signCallbackBody(rawBody, h.secrets.test) } });
      expect([res.status, res.body.data]).toEqual([200, { received: true }]);
    });

    // The callback route reads its body raw: a shape the API refuses elsewhere (malformed, too deep,
    // text no column holds) is the adapter's to judge after the signature, never a 400.
    it.each([
      ['a body that is not JSON', '{"event": "charge.success", "data": '],
      ['a body nested deeper than the API allows', `{"event":"x","data":${'['.repeat(40)}${']'.repeat(40)}}`],
      ['a body with a NUL escape', '{"event":"customeridentification.failed","data":{"note":"\\u0000"}}'],
    ])('acknowledges (200) %s when signed, and refuses it unsigned', async (_what, rawBody) => {
      const signed = await http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': signCallbackBody(rawBody, h.secrets.test) } });
      expect([signed.status, signed.body.data]).toEqual([200, { received: true }]);
      const unsigned = await http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': 'f'.repeat(128) } });
      expect([unsigned.status, unsigned.body.code]).toEqual([403, 'invalid_signature']);
    });
  });

  /** Pays a checkout at the provider without its own callback, and returns the charge.success callback Paystack would send. */
  const paidWithoutCallback = async (m: TestMerchant, amount: number) => {
    const reference = (await initializePayment(h.gateway, m, { amount, email: buyer() })).body.data.reference as string;
    h.sim.setWebhookUrl(undefined);
    try {
      await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: {} });
    } finally {
      h.sim.setWebhookUrl(`${h.gateway.baseUrl}/api/provider/webhooks`);
    }
    const wire = await http(h.sim.url() as string, 'GET', `/transaction/verify/${reference}`, { token: h.secrets.test });
    const rawBody = JSON.stringify({ event: 'charge.success', data: wire.body.data });
    return { reference, rawBody, signature: signCallbackBody(rawBody, h.secrets.test) };
  };
  const deliver = (callback: { rawBody: string; signature: string }) =>
    http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody: callback.rawBody, headers: { 'x-paystack-signature': callback.signature } });
  /** The merchant's ledger entries for one payment, as [type, amount] pairs. */
  const ledgerOf = async (m: TestMerchant, reference: string) =>
    ((await api('GET', '/wallet/ledger?limit=100', undefined, m)).body.data as Array<{ type: string; amount: number; reference: string }>)
      .filter((e) => e.reference === reference)
      .map((e) => [e.type, e.amount])
      .sort();

  describe('provider callbacks are processed once', () => {
    /** Counts the gateway's provider verifies of one reference; each takes 300 ms so deliveries overlap. */
    const countVerifies = (reference: string) => {
      const provider = h.gateway.app.get(PaymentProvider, { strict: false });
      const original = provider.verifyTransaction.bind(provider);
      const calls: string[] = [];
      const spy = jest.spyOn(provider, 'verifyTransaction').mockImplementation(async (mode, ref) => {
        if (ref === reference) {
          calls.push(ref);
          await sleep(300);
        }
        return original(mode, ref);
      });
      return { calls, restore: () => spy.mockRestore() };
    };

    it('processes three identical deliveries arriving together once, and claims nothing; a later redelivery changes nothing', async () => {
      const m = await createMerchant(h.gateway);
      const callback = await paidWithoutCallback(m, 2000);
      const db = h.gateway.app.get(DataSource);
      const claims = async () => Number((await db.query(`SELECT count(*)::int AS n FROM provider_events`))[0].n);
      const claimsBefore = await claims();
      const verifies = countVerifies(callback.reference);
      try {
        // A pending payment's charge takes verify's path, unclaimed: the first asks the provider, the others take its answer.
        const together = await Promise.all([deliver(callback), deliver(callback), deliver(callback)]);
        expect(together.map((r) => r.status)).toEqual([200, 200, 200]);
        expect(verifies.calls).toHaveLength(1);
        expect(await claims()).toBe(claimsBefore);
        expect((await deliver(callback)).status).toBe(200);
        expect(verifies.calls).toHaveLength(1);
      } finally {
        verifies.restore();
      }
      // 2,000 − 10 − (30 + 0)
      expect((await api('GET', `/payments/${callback.reference}`, undefined, m)).body.data).toMatchObject({ status: 'success', net_amount: 1960 });
      expect((await balance(m)).available_balance).toBe(1960);
      expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(1);
    });

    it("asks the provider once when the callback and the merchant's verify arrive together, and both see the success", async () => {
      const m = await createMerchant(h.gateway);
      const callback = await paidWithoutCallback(m, 1600);
      const verifies = countVerifies(callback.reference);
      try {
        const delivered = deliver(callback);
        await waitFor(async () => verifies.calls.length === 1, { what: "the callback's provider verify" });
        const verified = await api('POST', '/payments/verify', { reference: callback.reference }, m);
        expect((await delivered).status).toBe(200);
        expect([verified.status, verified.body.data.status]).toEqual([200, 'success']);
        expect(verifies.calls).toHaveLength(1);
      } finally {
        verifies.restore();
      }
      expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(1);
    });

    it('acknowledges the callback of a payment verify already credited without asking the provider or writing anything', async () => {
      const m = await createMerchant(h.gateway);
      const callback = await paidWithoutCallback(m, 1800);
      expect((await api('POST', '/payments/verify', { reference: callback.reference }, m)).body.data.status).toBe('success');
      const db = h.gateway.app.get(DataSource);
      const claims = async () => Number((await db.query(`SELECT count(*)::int AS n FROM provider_events`))[0].n);
      const claimsBefore = await claims();
      const verifies = countVerifies(callback.reference);
      try {
        expect((await deliver(callback)).status).toBe(200);
        expect(verifies.calls).toHaveLength(0);
      } finally {
        verifies.restore();
      }
      expect(await claims()).toBe(claimsBefore);
      expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(1);
      // 1,800 − 10 − (27 + 0)
      expect((await balance(m)).available_balance).toBe(1763);
    });

    it('processes a delivery again when its first processing failed (the provider was down)', async () => {
      const m = await createMerchant(h.gateway);
      const callback = await paidWithoutCallback(m, 1500);
      h.sim.setKnobs({ failNext: 1 });
      const failed = await deliver(callback);
      expect([failed.status, failed.body.code]).toEqual([502, 'provider_error']);
      expect((await api('GET', `/payments/${callback.reference}`, undefined, m)).body.data.status).toBe('pending');
      const redelivered = await deliver(callback);
      expect(redelivered.status).toBe(200);
      expect((await api('GET', `/payments/${callback.reference}`, undefined, m)).body.data.status).toBe('success');
      expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(1);
    });
  });

  describe('a provider reporting another amount or currency than the payment (docs/payments.md)', () => {
    it.each(['amount', 'currency'] as const)('answers verify and the callback 502 provider_error and credits nothing when it reports another %s', async (misreport) => {
      const m = await createMerchant(h.gateway);
      const callback = await paidWithoutCallback(m, 2000);
      const nothingCredited = async () => {
        expect((await api('GET', `/payments/${callback.reference}`, undefined, m)).body.data).toMatchObject({ status: 'pending', net_amount: null });
        expect(await balance(m)).toMatchObject({ available_balance: 0, total_balance: 0 });
        expect(await ledgerOf(m, callback.reference)).toEqual([]);
        expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(0);
      };

      h.sim.setKnobs({ misreportNext: 1, misreport });
      const verified = await api('POST', '/payments/verify', { reference: callback.reference }, m);
      expect([verified.status, verified.body.code]).toEqual([502, 'provider_error']);
      await nothingCredited();

      // The callback is checked against the provider's verify, which misreports again.
      h.sim.setKnobs({ misreportNext: 1, misreport });
      const delivered = await deliver(callback);
      expect([delivered.status, delivered.body.code]).toEqual([502, 'provider_error']);
      await nothingCredited();
      // Both misreports were consumed by the gateway's own calls above.
      expect(h.sim.knobs().misreportNext).toBe(0);

      // Once the provider reports what was asked for, the payment is credited, once.
      expect((await api('POST', '/payments/verify', { reference: callback.reference }, m)).body.data).toMatchObject({ status: 'success', net_amount: 1960 });
      expect((await deliver(callback)).status).toBe(200);
      expect(await ledgerOf(m, callback.reference)).toEqual([
        ['credit', 2000],
        ['fee', 10],
        ['fee', 30],
      ]);
      expect((await balance(m)).available_balance).toBe(1960);
      expect(await eventsNamed('payment.success', callback.reference)).toHaveLength(1);
    });
  });

  describe('a failed payment the customer pays later (another card on the same checkout)', () => {
    it('is credited once, by the callback and any number of verifies, keeping its payment.failed', async () => {
      const m = await createMerchant(h.gateway);
      const failed = await paidPayment(h.gateway, m, { amount: 5000, email: buyer() }, 'declined');
      const reference = failed.body.data.reference;
      expect(failed.body.data).toMatchObject({ status: 'failed', net_amount: null });
      expect(await eventsNamed('payment.failed', reference)).toHaveLength(1);

      // The customer retries with a card that pays: the provider's charge.success callback races these verifies.
      await http(h.sim.url() as string, 'POST', `/sim/transactions/${reference}/complete`, { token: h.secrets.test, body: { outcome: 'success' } });
      const verifies = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/payments/verify', { reference }, m)));
      expect(verifies.map((v) => [v.status, v.body.data.status])).toEqual(Array(5).fill([200, 'success']));
      await h.sim.idle();
      expect(h.sim.callbacks().some((c) => c.event === 'charge.success' && c.body.includes(reference))).toBe(true);

      // 5,000 − 10 − (75 + 100)
      expect((await api('GET', `/payments/${reference}`, undefined, m)).body.data).toMatchObject({ status: 'success', net_amount: 4815 });
      expect(await ledgerOf(m, reference)).toEqual([
        ['credit', 5000],
        ['fee', 10],
        ['fee', 175],
      ]);
      expect((await balance(m)).available_balance).toBe(4815);
      expect(await eventsNamed('payment.success', reference)).toHaveLength(1);
      expect(await eventsNamed('payment.failed', reference)).toHaveLength(1);
    });
  });

  describe('provider failures', () => {
    it('answers 504 when the provider times out, and the same idempotency key then succeeds with one payment', async () => {
      // A 2 s provider timeout: short enough for a quick test, long enough that a loaded machine's
      // ordinary provider calls never reach it; the hung call is held well past it.
      const slow = await startPaymentsHarness({ PROVIDER_TIMEOUT_MS: '2000' });
      try {
        const m = await createMerchant(slow.gateway);
        slow.sim.setKnobs({ timeoutNext: 1, hangMs: 6000 });
        const body = { amount: 1200, email: buyer() };
        const headers = { 'Idempotency-Key': 'order-42' };
        const first = await initializePayment(slow.gateway, m, body, headers);
        expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
        const retry = await initializePayment(slow.gateway, m, body, headers);
        expect(retry.status).toBe(201);
        const list = (await http(slow.gateway.baseUrl, 'GET', '/api/v1/payments', { token: m.key })).body.data;
        expect(list.map((p: { reference: string }) => p.reference)).toEqual([retry.body.data.reference]);

        // The key now belongs to that payment: another amount under it is refused.
        slow.sim.setKnobs({ timeoutNext: 1, hangMs: 6000 });
        const other = await initializePayment(slow.gateway, m, body, { 'Idempotency-Key': 'order-43' });
        expect(other.status).toBe(504);
        const changed = await initializePayment(slow.gateway, m, { ...body, amount: 1300 }, { 'Idempotency-Key': 'order-43' });
        expect([changed.status, changed.body.code]).toEqual([422, 'idempotency_key_reused']);
      } finally {
        await slow.close();
      }
    });
  });
});
