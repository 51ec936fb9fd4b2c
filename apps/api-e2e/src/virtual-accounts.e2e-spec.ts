import { signCallbackBody } from '@gateway/provider-sim';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { startPaymentsHarness, type PaymentsHarness } from './support/payments';
import { signedInPlatformUser } from './support/portal-client';

/**
 * Dedicated virtual accounts over HTTP against the simulator. Fees of a ₦5,000 deposit: the
 * simulator's 1.5 % + ₦100 (₦175) and the platform's ₦10, so the wallet gains ₦4,815.
 */
describe('virtual accounts', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const sim = (method: string, path: string, body?: unknown) => http(h.sim.url() as string, method, path, { token: h.secrets.test, body });
  const balance = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance?currency=NGN')).body.data as { available_balance: number };
  const ledgerOf = async (m: TestMerchant, reference: string) =>
    ((await api(m, 'GET', `/wallet/ledger?reference=${reference}&limit=100`)).body.data as Array<{ type: string; amount: number; balance_type: string; direction: string }>)
      .map((e) => `${e.type} ${e.balance_type} ${e.direction} ${e.amount}`)
      .sort();
  const credited = async (developerId: string) =>
    (await h.gateway.app.get(DataSource).query(`SELECT data->>'reference' AS reference FROM events WHERE name = 'virtual_account.credited' AND developer_id = $1`, [developerId])) as Array<{ reference: string }>;
  const deliver = (rawBody: string) => http(h.gateway.baseUrl, 'POST', '/api/provider/webhooks', { rawBody, headers: { 'x-paystack-signature': signCallbackBody(rawBody, h.secrets.test) } });

  async function customer(m: TestMerchant, fields: { name?: string; phone?: string } = { name: 'Ada Lovelace', phone: '+2348012345678' }): Promise<string> {
    const res = await api(m, 'POST', '/customers', { email: `va-${randomBytes(5).toString('hex')}@example.com`, ...fields });
    expect(res.status).toBe(201);
    return res.body.data.reference as string;
  }

  async function account(m: TestMerchant, customerReference?: string): Promise<{ id: string; account_number: string; customer_reference: string }> {
    const res = await api(m, 'POST', '/virtual-accounts', { customer_reference: customerReference ?? (await customer(m)) });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  beforeAll(async () => {
    h = await startPaymentsHarness({}, { ownDatabase: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('accounts', () => {
    it('opens an account for a customer, lists it and shows it; a second one for the same customer is 409', async () => {
      const merchant = await createMerchant(h.gateway);
      const ref = await customer(merchant);
      const created = await api(merchant, 'POST', '/virtual-accounts', { customer_reference: ref });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^va_[0-9a-f]{24}$/),
        account_number: expect.stringMatching(/^\d{10}$/),
        account_name: expect.any(String),
        bank_name: expect.any(String),
        customer_reference: ref,
        currency: 'NGN',
        status: 'active',
        created_at: expect.any(String),
        deactivated_at: null,
      });
      const id = created.body.data.id as string;
      expect((await api(merchant, 'GET', `/virtual-accounts/${id}`)).body.data).toEqual(created.body.data);
      expect((await api(merchant, 'GET', `/virtual-accounts/${id}/`)).status).toBe(200);
      expect((await api(merchant, 'GET', '/virtual-accounts')).body.data).toEqual([created.body.data]);
      expect((await api(merchant, 'GET', `/virtual-accounts?customer=${ref}&status=active`)).body.data.map((a: { id: string }) => a.id)).toEqual([id]);
      expect((await api(merchant, 'GET', '/virtual-accounts?status=inactive')).body.data).toEqual([]);

      const again = await api(merchant, 'POST', '/virtual-accounts', { customer_reference: ref });
      expect([again.status, again.body.code]).toEqual([409, 'virtual_account_exists']);
    });

    it('refuses an unknown customer, a customer without the names and phone the provider needs, and unknown fields', async () => {
      const merchant = await createMerchant(h.gateway);
      const unknown = await api(merchant, 'POST', '/virtual-accounts', { customer_reference: 'CUS_000000000000000000' });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'customer_not_found']);
      const bare = await api(merchant, 'POST', '/virtual-accounts', { customer_reference: await customer(merchant, { name: 'Ada' }) });
      expect([bare.status, bare.body.code, Object.keys(bare.body.errors).sort()]).toEqual([400, 'validation_error', ['customer.name', 'customer.phone']]);
      const extra = await api(merchant, 'POST', '/virtual-accounts', { customer_reference: await customer(merchant), bank: 'wema' });
      expect([extra.status, extra.body.code]).toEqual([400, 'validation_error']);
    });

    it('deactivates an account, after which the customer may have a new one', async () => {
      const merchant = await createMerchant(h.gateway);
      const first = await account(merchant);
      const deactivated = await api(merchant, 'POST', `/virtual-accounts/${first.id}/deactivate`);
      expect(deactivated.body.data).toMatchObject({ id: first.id, status: 'inactive', deactivated_at: expect.any(String) });
      const twice = await api(merchant, 'POST', `/virtual-accounts/${first.id}/deactivate`);
      expect([twice.status, twice.body.code]).toEqual([409, 'invalid_state']);
      expect(twice.body.message).toContain('inactive');
      const second = await account(merchant, first.customer_reference);
      expect(second.id).not.toBe(first.id);
      const listed = (await api(merchant, 'GET', `/virtual-accounts?customer=${first.customer_reference}`)).body.data as Array<{ id: string; status: string }>;
      expect(Object.fromEntries(listed.map((a) => [a.id, a.status]))).toEqual({ [first.id]: 'inactive', [second.id]: 'active' });
    });

    it("never gives one merchant's customer a number another merchant held, even deactivated (the provider keys customers by e-mail)", async () => {
      const a = await createMerchant(h.gateway);
      const b = await createMerchant(h.gateway);
      const email = `shared-${randomBytes(5).toString('hex')}@example.com`;
      const person = { email, name: 'Ada Lovelace', phone: '+2348012345678' };
      const ofA = (await api(a, 'POST', '/customers', person)).body.data.reference as string;
      const ofB = (await api(b, 'POST', '/customers', person)).body.data.reference as string;
      const held = await account(a, ofA);
      expect((await api(a, 'POST', `/virtual-accounts/${held.id}/deactivate`)).status).toBe(200);

      const refused = await api(b, 'POST', '/virtual-accounts', { customer_reference: ofB });
      expect([refused.status, refused.body.code]).toEqual([409, 'virtual_account_exists']);
      expect(refused.body.message).not.toContain(a.developerId);
      expect((await api(b, 'GET', '/virtual-accounts')).body.data).toEqual([]);
    });

    it("answers 404 virtual_account_not_found for a missing account, another developer's and the other mode's, on every route", async () => {
      const merchant = await createMerchant(h.gateway, { identityVerified: true });
      const other = await createMerchant(h.gateway);
      const live = await merchant.issueKey({ mode: 'live' });
      const { id } = await account(merchant);
      for (const [who, target] of [
        [other, id],
        [live, id],
        [merchant, 'va_000000000000000000000000'],
      ] as const) {
        for (const [method, path, body] of [
          ['GET', `/virtual-accounts/${target}`, undefined],
          ['GET', `/virtual-accounts/${target}/deposits`, undefined],
          ['POST', `/virtual-accounts/${target}/deactivate`, undefined],
        ] as const) {
          const res = await api(who, method, path, body);
          expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'virtual_account_not_found']);
        }
      }
      const sandbox = await api(other, 'POST', `/sandbox/virtual-accounts/${id}/deposits`, { amount: 1000 });
      expect([sandbox.status, sandbox.body.code]).toEqual([404, 'virtual_account_not_found']);
      const liveSandbox = await api(live, 'POST', `/sandbox/virtual-accounts/${id}/deposits`, { amount: 1000 });
      expect([liveSandbox.status, liveSandbox.body.code]).toEqual([403, 'test_mode_required']);
      expect((await api(other, 'GET', '/virtual-accounts')).body.data).toEqual([]);
      expect((await api(live, 'GET', '/virtual-accounts')).body.data).toEqual([]);
      expect((await api(merchant, 'GET', `/virtual-accounts/${id}`)).body.data.status).toBe('active');
    });
  });

  describe('deposits', () => {
    it('credits a sandbox deposit once, with its fees ledgered to the cent, however often the callback is delivered', async () => {
      const merchant = await createMerchant(h.gateway);
      const { id, customer_reference } = await account(merchant);
      const res = await api(merchant, 'POST', `/sandbox/virtual-accounts/${id}/deposits`, { amount: 5000, sender_name: 'Grace Hopper' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        reference: expect.stringMatching(/^vad_[0-9a-f]{24}$/),
        virtual_account_id: id,
        customer_reference,
        amount: 5000,
        currency: 'NGN',
        platform_fee: 10,
        provider_fee: 175,
        net_amount: 4815,
        sender_name: 'Grace Hopper',
        sender_bank: expect.any(String),
        paid_at: expect.any(String),
        created_at: expect.any(String),
      });
      const reference = res.body.data.reference as string;
      await h.sim.idle();
      const callback = h.sim.callbacks().find((c) => c.event === 'charge.success' && c.body.includes('dedicated_nuban') && c.body.includes('Grace Hopper'));
      expect(callback?.status).toBe('delivered');
      for (let i = 0; i < 5; i++) expect((await deliver(callback?.body as string)).status).toBe(200);

      expect(await balance(merchant)).toMatchObject({ available_balance: 4815 });
      expect(await ledgerOf(merchant, reference)).toEqual(['fee available debit 10', 'fee available debit 175', 'virtual_account_credit available credit 5000']);
      expect(await credited(merchant.developerId)).toEqual([{ reference }]);
      expect((await api(merchant, 'GET', `/virtual-accounts/${id}/deposits`)).body.data).toEqual([res.body.data]);
    });

    it('credits once when two callbacks for the same deposit race', async () => {
      const merchant = await createMerchant(h.gateway);
      const { account_number } = await account(merchant);
      // Made at the provider with callbacks off, so that the two deliveries below are the first.
      const webhookUrl = `${h.gateway.baseUrl}/api/provider/webhooks`;
      h.sim.setWebhookUrl(undefined);
      let data: Record<string, unknown>;
      try {
        data = (await sim('POST', `/sim/dedicated_accounts/${account_number}/deposits`, { amount: 500000 })).body.data;
      } finally {
        h.sim.setWebhookUrl(webhookUrl);
      }
      // Two bodies with different bytes (so the callback claim lets both through) for one transaction.
      const bodies = [JSON.stringify({ event: 'charge.success', data }), JSON.stringify({ data, event: 'charge.success' })];
      const answers = await Promise.all(bodies.map(deliver));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(await balance(merchant)).toMatchObject({ available_balance: 4815 });
      const events = await credited(merchant.developerId);
      expect(events).toHaveLength(1);
      expect(await ledgerOf(merchant, events[0].reference)).toEqual(['fee available debit 10', 'fee available debit 175', 'virtual_account_credit available credit 5000']);
    });

    it('records a deposit into an account the gateway does not know, for platform staff, and credits nobody', async () => {
      const merchant = await createMerchant(h.gateway);
      const before = await balance(merchant);
      const providerCustomer = (await sim('POST', '/customer', { email: `stray-${randomBytes(4).toString('hex')}@example.com`, first_name: 'Stray', last_name: 'Sender', phone: '+2348000000000' })).body.data;
      const stray = (await sim('POST', '/dedicated_account', { customer: providerCustomer.customer_code })).body.data.account_number as string;
      expect((await sim('POST', `/sim/dedicated_accounts/${stray}/deposits`, { amount: 123456, sender_name: 'Lost Payer' })).status).toBe(200);
      await h.sim.idle();

      const { client: secretary } = await signedInPlatformUser(h.gateway, 'financial_secretary');
      const listed = (await secretary.get('/api/portal/admin/unmatched-deposits?limit=100')).body.data as Array<Record<string, unknown>>;
      expect(listed.filter((d) => d['account_number'] === stray)).toEqual([
        expect.objectContaining({ reference: expect.stringMatching(/^vad_/), mode: 'test', amount: 1234.56, currency: 'NGN', sender_name: 'Lost Payer' }),
      ]);
      expect(await balance(merchant)).toEqual(before);
      expect((await http(h.gateway.baseUrl, 'GET', '/api/portal/admin/unmatched-deposits')).status).toBe(401);
    });
  });
});
