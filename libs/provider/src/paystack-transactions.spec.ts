import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { Amount, DomainError } from '@gateway/platform';
import { ProviderRejectedError } from './provider-rejected.error';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import {
  adapterFor,
  LIVE_SECRET,
  ngn,
  payCheckoutWithCard,
  rawVerify,
  silenceProviderLogs,
  TEST_SECRET,
  uniqueReference,
} from './testing/adapter-harness';

describe('PaystackHttpProvider: checkout transactions and saved-card charges (over HTTP against the simulator)', () => {
  let sim: ProviderSimulator;
  let baseUrl: string;
  let provider: PaystackHttpProvider;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0 });
    baseUrl = await sim.listen();
    provider = adapterFor(baseUrl);
  });
  afterAll(() => sim.close());

  async function paidCheckout(mode: 'test' | 'live', card: string, amount = ngn('5000.00')) {
    const reference = uniqueReference('pay');
    const init = await provider.initializeTransaction(mode, { reference, email: 'ada@example.com', amount, currency: 'NGN' });
    expect(await payCheckoutWithCard(init.authorizationUrl, card)).toBe(200);
    return reference;
  }

  it('initializes a checkout under our reference; until paid, verify reports it pending (Paystack: abandoned)', async () => {
    const reference = uniqueReference('pay');
    const init = await provider.initializeTransaction('test', {
      reference,
      email: 'ada@example.com',
      amount: ngn('2500.00'),
      currency: 'NGN',
      callbackUrl: 'https://merchant.example/return',
      metadata: { order: 'o-1' },
    });
    expect(init.authorizationUrl).toBe(`${baseUrl}/checkout/${init.accessCode}`);
    expect(init.accessCode).toMatch(/\S+/);

    const transaction = await provider.verifyTransaction('test', reference);
    expect(transaction).toMatchObject({ reference, status: 'pending', currency: 'NGN', fee: null, paidAt: null, authorization: null });
    expect(transaction?.amount.toString()).toBe('2500.00');
    expect((await rawVerify(baseUrl, TEST_SECRET, reference))['status']).toBe('abandoned');
  });

  it('sends 100.10 NGN as exactly 10010 kobo and reads it back as 100.10', async () => {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('100.10'), currency: 'NGN' });
    expect((await rawVerify(baseUrl, TEST_SECRET, reference))['amount']).toBe(10010);
    expect((await provider.verifyTransaction('test', reference))?.amount.toMinor()).toBe(10010n);
    expect((await provider.verifyTransaction('test', reference))?.amount.toString()).toBe('100.10');
  });

  it('sends 99,999,999.99 as exactly 9999999999 minor units and reads the fee back exactly', async () => {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('99999999.99'), currency: 'USD' });
    expect((await rawVerify(baseUrl, TEST_SECRET, reference))['amount']).toBe(9_999_999_999);
    const paid = await provider.completeSandboxCheckout('test', reference, 'success');
    expect(paid.amount.toString()).toBe('99999999.99');
    // USD 3.9 %, half-up to the cent: 3,899,999.99961 → 3,900,000.00.
    expect(paid.fee?.toString()).toBe('3900000.00');
  });

  it('a paid checkout verifies as success with the provider fee, paid time, reusable authorization and customer code', async () => {
    const reference = await paidCheckout('test', '4084084084084081', ngn('10000.00'));
    const transaction = await provider.verifyTransaction('test', reference);
    expect(transaction).toMatchObject({ reference, status: 'success', currency: 'NGN', gatewayResponse: 'Approved', channel: 'card' });
    expect(transaction?.fee?.toString()).toBe('250.00'); // 1.5 % + ₦100
    expect(transaction?.paidAt).toBeInstanceOf(Date);
    expect(transaction?.providerId).toMatch(/^\d+$/);
    expect(transaction?.customerCode).toMatch(/^CUS_/);
    expect(transaction?.authorization).toMatchObject({ reusable: true, last4: '4081', brand: 'visa', expMonth: '12', expYear: '2030', channel: 'card' });
    expect(transaction?.authorization?.code).toMatch(/^AUTH_/);
    expect(transaction?.authorization?.signature).toMatch(/^SIG_/);
  });

  it.each([
    ['declined', 'Declined'],
    ['insufficient_funds', 'Insufficient Funds'],
  ] as const)('a %s sandbox checkout is a failed transaction without an authorization, not an error', async (outcome, response) => {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('3000.00'), currency: 'NGN' });
    const transaction = await provider.completeSandboxCheckout('test', reference, outcome);
    expect(transaction).toMatchObject({ reference, status: 'failed', gatewayResponse: response, authorization: null, fee: null });
    expect((await provider.verifyTransaction('test', reference))?.status).toBe('failed');
  });

  it('an unknown reference verifies as null, and so does a test reference asked for in live mode', async () => {
    expect(await provider.verifyTransaction('test', uniqueReference('missing'))).toBeNull();
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn('500.00'), currency: 'NGN' });
    expect(await provider.verifyTransaction('live', reference)).toBeNull();
    expect(await provider.verifyTransaction('test', reference)).not.toBeNull();
  });

  it('live mode uses its own account: its reference is unknown in test mode', async () => {
    const reference = await paidCheckout('live', '4084084084084081');
    expect((await provider.verifyTransaction('live', reference))?.status).toBe('success');
    expect(await provider.verifyTransaction('test', reference)).toBeNull();
  });

  describe('chargeAuthorization', () => {
    async function savedCard(card: string) {
      const reference = await paidCheckout('test', card);
      const transaction = await provider.verifyTransaction('test', reference);
      return transaction?.authorization?.code as string;
    }

    it('charges a reusable authorization: success with fee; repeating the same reference returns the same transaction', async () => {
      const authorizationCode = await savedCard('4084084084084081');
      const input = { reference: uniqueReference('chg'), authorizationCode, email: 'ada@example.com', amount: ngn('2000.00'), currency: 'NGN' as const };
      const charged = await provider.chargeAuthorization('test', input);
      expect(charged).toMatchObject({ reference: input.reference, status: 'success', gatewayResponse: 'Approved' });
      expect(charged.fee?.toString()).toBe('30.00');
      // Paystack refuses the reused reference ("Duplicate Transaction Reference"); the adapter looks the charge up instead.
      const again = await provider.chargeAuthorization('test', input);
      expect(again).toMatchObject({ providerId: charged.providerId, status: 'success', reference: input.reference });
      expect(again.amount.toString()).toBe('2000.00');
    });

    it('repeating a declined charge under the same reference reports the decline again, without charging again', async () => {
      const authorizationCode = await savedCard('5399838383838381');
      const input = { reference: uniqueReference('chg'), authorizationCode, email: 'ada@example.com', amount: ngn('2000.00'), currency: 'NGN' as const };
      const first = await provider.chargeAuthorization('test', input);
      const again = await provider.chargeAuthorization('test', input);
      expect([first.status, again.status, again.gatewayResponse, again.providerId]).toEqual(['failed', 'failed', 'Insufficient Funds', first.providerId]);
    });

    it('an issuer decline (insufficient funds) is a failed transaction, not an exception', async () => {
      const authorizationCode = await savedCard('5399838383838381');
      const charged = await provider.chargeAuthorization('test', {
        reference: uniqueReference('chg'),
        authorizationCode,
        email: 'ada@example.com',
        amount: ngn('2000.00'),
        currency: 'NGN',
      });
      expect(charged).toMatchObject({ status: 'failed', gatewayResponse: 'Insufficient Funds', fee: null });
    });

    it('an unknown authorization is a ProviderRejectedError carrying the provider message', async () => {
      const attempt = provider.chargeAuthorization('test', {
        reference: uniqueReference('chg'),
        authorizationCode: 'AUTH_doesnotexist',
        email: 'ada@example.com',
        amount: ngn('100.00'),
        currency: 'NGN',
      });
      await expect(attempt).rejects.toBeInstanceOf(ProviderRejectedError);
      await expect(attempt).rejects.toMatchObject({ code: 'provider_error', providerStatus: 400, providerMessage: 'Invalid authorization code' });
    });

    it("a test-mode authorization does not exist in live mode", async () => {
      const authorizationCode = await savedCard('4084084084084081');
      await expect(
        provider.chargeAuthorization('live', { reference: uniqueReference('chg'), authorizationCode, email: 'ada@example.com', amount: ngn('100.00'), currency: 'NGN' }),
      ).rejects.toMatchObject({ providerStatus: 400, providerMessage: 'Invalid authorization code' });
    });

    it('a non-reusable authorization is refused with the provider message', async () => {
      const authorizationCode = await savedCard('5060990580000212');
      await expect(
        provider.chargeAuthorization('test', { reference: uniqueReference('chg'), authorizationCode, email: 'ada@example.com', amount: ngn('100.00'), currency: 'NGN' }),
      ).rejects.toMatchObject({ providerStatus: 400, providerMessage: 'This authorization is not reusable' });
    });

    it('the same reference with another amount is refused (Duplicate Transaction Reference)', async () => {
      const authorizationCode = await savedCard('4084084084084081');
      const reference = uniqueReference('chg');
      await provider.chargeAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('100.00'), currency: 'NGN' });
      await expect(
        provider.chargeAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('100.01'), currency: 'NGN' }),
      ).rejects.toMatchObject({ providerMessage: 'Duplicate Transaction Reference' });
    });

    it("a reference already used by a checkout is refused, not taken for the charge's outcome", async () => {
      const authorizationCode = await savedCard('4084084084084081');
      const reference = await paidCheckout('test', '4084084084084081', ngn('100.00'));
      await expect(
        provider.chargeAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('100.00'), currency: 'NGN' }),
      ).rejects.toMatchObject({ providerStatus: 400, providerMessage: 'Duplicate Transaction Reference' });
    });
  });

  it('refuses an amount of zero or one beyond 2^53−1 minor units before calling the provider', async () => {
    const base = { reference: uniqueReference('pay'), email: 'ada@example.com', currency: 'NGN' as const };
    await expect(provider.initializeTransaction('test', { ...base, amount: Amount.zero() })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(provider.initializeTransaction('test', { ...base, amount: Amount.fromMinor(2n ** 53n) })).rejects.toMatchObject({ code: 'validation_error' });
    expect(await provider.verifyTransaction('test', base.reference)).toBeNull();
  });

  it('refuses sandbox controls in live mode without calling the provider', async () => {
    const reference = uniqueReference('pay');
    await provider.initializeTransaction('live', { reference, email: 'ada@example.com', amount: ngn('500.00'), currency: 'NGN' });
    const attempt = provider.completeSandboxCheckout('live', reference, 'success');
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'test_mode_required' });
    expect((await provider.verifyTransaction('live', reference))?.status).toBe('pending');
    await expect(provider.depositToDedicatedAccount('live', { accountNumber: '0123456789', amount: ngn('1.00') })).rejects.toMatchObject({ code: 'test_mode_required' });
    await expect(provider.openSandboxDispute('live', { transactionReference: reference })).rejects.toMatchObject({ code: 'test_mode_required' });
    await expect(provider.resolveSandboxDispute('live', '1', 'declined')).rejects.toMatchObject({ code: 'test_mode_required' });
  });
});
