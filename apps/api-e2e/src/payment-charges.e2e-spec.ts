import { DevelopersService } from '@gateway/domain/developers';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, customerWithSavedCard, eventsFor, startPaymentsHarness, type PaymentsHarness } from './support/payments';

describe('repeat charges of saved cards', () => {
  let h: PaymentsHarness;
  const api = (m: Pick<TestMerchant, 'key'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: m.key, body, headers });
  const available = async (m: TestMerchant) => (await api(m, 'GET', '/wallet/balance')).body.data.available_balance;
  const events = (name: string, reference: string) => eventsFor(h, name, reference);

  const inMinutes = (minutes: number) => new Date(h.gateway.clock.now().getTime() + minutes * 60_000).toISOString();

  beforeAll(async () => {
    h = await startPaymentsHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('POST /payments/charge', () => {
    it('charges a saved card now and credits it like a verified payment', async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const before = await available(merchant);
      const res = await api(merchant, 'POST', '/payments/charge', { authorization_code: code, email, amount: 5000, metadata: { cycle: 2 } });
      expect(res.status).toBe(201);
      // 5,000 − 10 − (75 + 100)
      expect(res.body.data).toMatchObject({ status: 'success', amount: 5000, net_amount: 4815, metadata: { cycle: 2 }, authorization: { authorization_code: code } });
      expect(await available(merchant)).toBeCloseTo(before + 4815, 2);
      expect(await events('payment.success', res.body.data.reference)).toBe(1);
    });

    it('records a decline as a failed payment with payment.failed, crediting nothing', async () => {
      // This test card pays on checkout but is refused on later charges (insufficient funds).
      const { merchant, email, code } = await customerWithSavedCard(h, '5399838383838381');
      const before = await available(merchant);
      const res = await api(merchant, 'POST', '/payments/charge', { authorization_code: code, email, amount: 2000 });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'failed', net_amount: null, gateway_response: 'Insufficient Funds' });
      expect(await events('payment.failed', res.body.data.reference)).toBe(1);
      expect(await available(merchant)).toBe(before);
    });

    it("answers 404 authorization_not_found for another merchant's code, the other mode's, or another customer's", async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      const other = await createMerchant(h.gateway);
      await h.gateway.app.get(DevelopersService, { strict: false }).verifyIdentity(merchant.developerId);
      const live = await merchant.issueKey({ mode: 'live' });
      for (const [who, mail] of [[other, email], [merchant, buyer()]] as const) {
        const res = await api(who, 'POST', '/payments/charge', { authorization_code: code, email: mail, amount: 1000 });
        expect([res.status, res.body.code]).toEqual([404, 'authorization_not_found']);
      }
      const liveRes = await api({ key: live.key }, 'POST', '/payments/charge', { authorization_code: code, email, amount: 1000 });
      expect([liveRes.status, liveRes.body.code]).toEqual([404, 'authorization_not_found']);
    });

    it('validates the request', async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      for (const [body, field] of [
        [{ email, amount: 1000 }, 'authorization_code'],
        [{ authorization_code: 'nope', email, amount: 1000 }, 'authorization_code'],
        [{ authorization_code: code, email, amount: 0 }, 'amount'],
        [{ authorization_code: code, email, amount: 1000, charge_at: inMinutes(5) }, 'charge_at'],
      ] as const) {
        const res = await api(merchant, 'POST', '/payments/charge', body);
        expect([res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([400, 'validation_error', [field]]);
      }
    });

    it('answers 504 when the provider times out; the same idempotency key then charges once', async () => {
      const { merchant, email, code } = await customerWithSavedCard(h);
      // The provider charges the card but answers after the gateway's 5 s timeout.
      h.sim.setKnobs({ timeoutNext: 1, hangMs: 6000, timeoutMode: 'after_processing' });
      const headers = { 'Idempotency-Key': 'renewal-7' };
      const first = await api(merchant, 'POST', '/payments/charge', { authorization_code: code, email, amount: 1500 }, headers);
      expect([first.status, first.body.code]).toEqual([504, 'gateway_timeout']);
      const retry = await api(merchant, 'POST', '/payments/charge', { authorization_code: code, email, amount: 1500 }, headers);
      expect(retry.body.data.status).toBe('success');
      const payments = (await api(merchant, 'GET', '/payments?limit=100')).body.data.filter((p: { amount: number }) => p.amount === 1500);
      expect(payments).toHaveLength(1);
      expect(await events('payment.success', retry.body.data.reference)).toBe(1);
    }, 30_000);
  });
});
