import { DevelopersService } from '@gateway/domain/developers';
import { Amount } from '@gateway/platform';
import fc from 'fast-check';
import { http } from './support/http';
import { createMerchant, type TestMerchant } from './support/merchants';
import { buyer, paidPayment, startPaymentsHarness, type PaymentsHarness } from './support/payments';

/** Exact minor units of a 2-decimal JSON amount. */
const cents = (value: number): bigint => Amount.parse(String(value)).toMinor();

interface LedgerLine {
  amount: number;
  direction: 'credit' | 'debit';
}

describe('payment preview', () => {
  let h: PaymentsHarness;
  let merchant: TestMerchant;
  let discounted: TestMerchant;
  const subaccounts: string[] = [];
  const preview = (m: Pick<TestMerchant, 'key'>, body: unknown) => http(h.gateway.baseUrl, 'POST', '/api/v1/payments/preview', { token: m.key, body });

  beforeAll(async () => {
    h = await startPaymentsHarness();
    merchant = await createMerchant(h.gateway);
    discounted = await createMerchant(h.gateway);
    await h.gateway.app.get(DevelopersService).setFeeOverride(discounted.developerId, 'NGN', Amount.parse('0'));
    for (let i = 0; i < 3; i++) {
      const created = await http(h.gateway.baseUrl, 'POST', '/api/v1/subaccounts', {
        token: merchant.key,
        body: { business_name: `Vendor ${i}`, bank_code: '058', account_number: String(7_100_000_000 + Math.floor(Math.random() * 800_000_000)) },
      });
      expect(created.status).toBe(201);
      subaccounts.push(created.body.data.code as string);
    }
  });
  afterAll(() => h?.close());

  it('₦5,000 with one 25 % split: platform fee ₦10, provider fee ₦175, ₦1,250 to the sub-account, ₦3,565 kept', async () => {
    const res = await preview(merchant, { amount: 5000, currency: 'NGN', splits: [{ subaccount: subaccounts[0], share: 0.25 }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        amount: 5000,
        currency: 'NGN',
        platform_fee: 10,
        estimated_provider_fee: 175,
        net_amount: 4815,
        splits: [{ subaccount: subaccounts[0], share: 0.25, amount: 1250 }],
        wallet_amount: 3565,
      },
    });
  });

  it("uses the account's platform fee override (0 here)", async () => {
    const res = await preview(discounted, { amount: 5000 });
    expect(res.body.data).toMatchObject({ platform_fee: 0, estimated_provider_fee: 175, net_amount: 4825, wallet_amount: 4825 });
  });

  it('equals what verify then ledgers, to the cent, over generated payments', async () => {
    const share = fc.integer({ min: 1, max: 4_000 }).map((basisPoints) => basisPoints / 10_000);
    const payment = fc.record({
      currency: fc.constantFrom('NGN', 'USD', 'KES'),
      minor: fc.integer({ min: 10_000, max: 50_000_000 }),
      // Shares may sum to 1.0 exactly, never past it (that is split_shares_exceed_total, tested below).
      splits: fc
        .uniqueArray(fc.record({ subaccount: fc.constantFrom(...subaccounts), share }), { maxLength: 3, selector: (s) => s.subaccount })
        .filter((splits) => splits.reduce((sum, s) => sum + Math.round(s.share * 10_000), 0) <= 10_000),
    });
    await fc.assert(
      fc.asyncProperty(payment, async ({ currency, minor, splits }) => {
        const body = { amount: Number(Amount.fromMinor(minor).toString()), currency, splits };
        const previewed = await preview(merchant, body);
        expect(previewed.status).toBe(200);
        const paid = await paidPayment(h.gateway, merchant, { ...body, email: buyer() });
        expect(paid.status).toBe(200);
        const verified = await http(h.gateway.baseUrl, 'POST', '/api/v1/payments/verify', { token: merchant.key, body: { reference: paid.body.data.reference } });
        const p = verified.body.data;
        const expected = previewed.body.data;
        expect(p.status).toBe('success');
        expect({ platform: p.fees.platform, provider: p.fees.provider, net: p.net_amount, splits: p.splits }).toEqual({
          platform: expected.platform_fee,
          provider: expected.estimated_provider_fee,
          net: expected.net_amount,
          splits: expected.splits,
        });
        const lines = (await http(h.gateway.baseUrl, 'GET', `/api/v1/wallet/ledger?reference=${p.reference}&limit=100`, { token: merchant.key })).body.data as LedgerLine[];
        const walletMoved = lines.reduce((sum, line) => sum + (line.direction === 'credit' ? cents(line.amount) : -cents(line.amount)), 0n);
        expect(walletMoved).toBe(cents(expected.wallet_amount));
      }),
      { numRuns: 25 },
    );
  });

  it('checks its input as initialize does', async () => {
    const refused = async (body: unknown, code: string) => {
      const res = await preview(merchant, body);
      expect([res.status, res.body.code]).toEqual([code === 'invalid_currency' || code === 'validation_error' || code === 'split_shares_exceed_total' ? 400 : 422, code]);
    };
    await refused({ amount: 50 }, 'validation_error'); // under the ₦100 minimum
    await refused({ amount: 100.001 }, 'validation_error');
    await refused({ amount: 1000, currency: 'EUR' }, 'invalid_currency');
    await refused({ amount: 1000, splits: [{ subaccount: 'ACCT_missing', share: 0.1 }] }, 'validation_error');
    await refused({ amount: 1000, splits: [{ subaccount: subaccounts[0], share: 0.6 }, { subaccount: subaccounts[1], share: 0.5 }] }, 'split_shares_exceed_total');
    await refused({ amount: 1000, email: 'x@example.com' }, 'validation_error'); // unknown field
  });

  it("does not see another account's sub-accounts, needs payments:read, and stores nothing", async () => {
    const other = await createMerchant(h.gateway);
    const foreign = await preview(other, { amount: 1000, splits: [{ subaccount: subaccounts[0], share: 0.1 }] });
    expect([foreign.status, foreign.body.code]).toEqual([400, 'validation_error']);
    const writeOnly = await createMerchant(h.gateway, { scopes: ['payments:write'] });
    const refused = await preview(writeOnly, { amount: 1000 });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    const readOnly = await createMerchant(h.gateway, { scopes: ['payments:read'] });
    expect((await preview(readOnly, { amount: 1000 })).status).toBe(200);
    const listed = await http(h.gateway.baseUrl, 'GET', '/api/v1/payments', { token: readOnly.key });
    expect(listed.body.data).toEqual([]);
  });
});
