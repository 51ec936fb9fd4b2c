import { createProviderSimulator, type ProviderSimulator } from '@gateway/provider-sim';
import { ProviderRejectedError } from './provider-rejected.error';
import type { PaystackHttpProvider } from './paystack/paystack-http.provider';
import { adapterFor, LIVE_SECRET, ngn, payCheckoutWithCard, silenceProviderLogs, TEST_SECRET, uniqueReference } from './testing/adapter-harness';

describe('PaystackHttpProvider: holds and refunds (over HTTP against the simulator)', () => {
  let sim: ProviderSimulator;
  let provider: PaystackHttpProvider;

  beforeAll(async () => {
    silenceProviderLogs();
    sim = createProviderSimulator({ secretKeys: [TEST_SECRET, LIVE_SECRET], transferDelayMs: 0, autoComplete: false });
    provider = adapterFor(await sim.listen());
  });
  afterAll(() => sim.close());

  async function paidCheckout(amount: string, card = '4084084084084081') {
    const reference = uniqueReference('pay');
    const init = await provider.initializeTransaction('test', { reference, email: 'ada@example.com', amount: ngn(amount), currency: 'NGN' });
    await payCheckoutWithCard(init.authorizationUrl, card);
    const transaction = await provider.verifyTransaction('test', reference);
    return { reference, authorizationCode: transaction?.authorization?.code as string };
  }

  describe('holds', () => {
    const reserve = (reference: string, authorizationCode: string, amount: string) =>
      provider.reserveAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn(amount), currency: 'NGN' });

    it('reserve → partial capture: the capture is a successful, verifiable transaction with a fee; capture is idempotent', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      const hold = await reserve(reference, authorizationCode, '3000.00');
      expect(hold).toMatchObject({ reference, status: 'reserved', currency: 'NGN', fee: null, gatewayResponse: 'Approved' });
      expect(hold.amount.toString()).toBe('3000.00');

      const captured = await provider.captureAuthorization('test', { reference, amount: ngn('2500.50'), currency: 'NGN' });
      expect(captured.status).toBe('captured');
      expect(captured.amount.toString()).toBe('2500.50');
      expect(captured.reservedAmount).toBeNull(); // the capture answers its transaction, not the hold
      expect(captured.fee?.toString()).toBe('137.51'); // 1.5 % of 2,500.50 = 37.5075 → 37.51, + ₦100

      const again = await provider.captureAuthorization('test', { reference, amount: ngn('2500.50') });
      expect(again.amount.toString()).toBe('2500.50');
      const transaction = await provider.verifyTransaction('test', reference);
      expect(transaction).toMatchObject({ reference, status: 'success' });
      expect(transaction?.amount.toString()).toBe('2500.50');
      const verified = await provider.verifyAuthorization('test', reference);
      expect(verified).toMatchObject({ status: 'captured' });
      expect([verified?.amount.toString(), verified?.reservedAmount?.toString()]).toEqual(['2500.50', '3000.00']);

      await expect(provider.releaseAuthorization('test', reference)).rejects.toMatchObject({ providerStatus: 400 });
    });

    it('reserve → release answers {reference, released}; capturing afterwards is refused', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      await reserve(reference, authorizationCode, '800.00');
      expect(await provider.releaseAuthorization('test', reference, 'NGN')).toEqual({ reference, status: 'released' });
      await expect(provider.captureAuthorization('test', { reference })).rejects.toBeInstanceOf(ProviderRejectedError);
      expect(await provider.verifyAuthorization('test', reference)).toMatchObject({ status: 'released' });
    });

    it('an issuer refusal (a 400 from the provider) is a hold with status failed, not an exception', async () => {
      const { authorizationCode } = await paidCheckout('100.00', '5399838383838381');
      const hold = await reserve(uniqueReference('hold'), authorizationCode, '800.00');
      expect(hold).toMatchObject({ status: 'failed', gatewayResponse: 'Preauthorization unsuccessful', currency: 'NGN' });
    });

    it('capturing more than reserved is refused; an unknown hold is a not-found rejection; verify answers null', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      await reserve(reference, authorizationCode, '800.00');
      await expect(provider.captureAuthorization('test', { reference, amount: ngn('800.01') })).rejects.toMatchObject({ providerStatus: 400, providerCode: 'invalid_params' });
      const unknown = provider.captureAuthorization('test', { reference: uniqueReference('missing') });
      await expect(unknown).rejects.toMatchObject({ providerStatus: 400, isNotFound: true, providerCode: 'not_found' });
      await expect(provider.releaseAuthorization('test', uniqueReference('missing'))).rejects.toMatchObject({ providerStatus: 400, isNotFound: true });
      expect(await provider.verifyAuthorization('test', uniqueReference('missing'))).toBeNull();
      await expect(reserve(uniqueReference('hold'), 'AUTH_unknown', '1.00')).rejects.toMatchObject({
        providerStatus: 400,
        providerType: 'validation_error',
        providerMessage: 'Invalid authorization code',
      });
    });

    it('the same hold asked again under its reference (a retry) answers the hold placed; another hold under it is refused', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      const first = await reserve(reference, authorizationCode, '900.00');
      const retry = await reserve(reference, authorizationCode, '900.00');
      expect(retry).toMatchObject({ reference, status: 'reserved' });
      expect(retry.amount.toString()).toBe(first.amount.toString());
      await expect(reserve(reference, authorizationCode, '901.00')).rejects.toMatchObject({ providerCode: 'duplicate_reference' });
    });

    it('a release answered 404 (a path the provider does not have) is a provider_error to retry, never a refusal read as "nothing to release"', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      await reserve(reference, authorizationCode, '700.00');
      // The same simulator under a base path it does not serve: every call is a 404 "Route not found".
      const astray = adapterFor(`${sim.url()}/v0`);
      const release = astray.releaseAuthorization('test', reference);
      await expect(release).rejects.toMatchObject({ code: 'provider_error' });
      await expect(release).rejects.not.toBeInstanceOf(ProviderRejectedError);
      await expect(astray.captureAuthorization('test', { reference })).rejects.not.toBeInstanceOf(ProviderRejectedError);
      expect(await provider.verifyAuthorization('test', reference)).toMatchObject({ status: 'reserved' });
    });

    it('hold checkout: pending until the customer authorizes on the page, then reserved with the new card, and capturable', async () => {
      const reference = uniqueReference('hold');
      const input = { reference, email: 'new-customer@example.com', amount: ngn('1500.00'), currency: 'NGN' as const };
      const checkout = await provider.initializeHoldCheckout('test', input);
      expect(checkout.authorizationUrl).toBe(`${sim.url()}/checkout/${checkout.accessCode}`);
      expect(await provider.initializeHoldCheckout('test', input)).toEqual(checkout); // a retry answers the same checkout
      expect(await provider.verifyAuthorization('test', reference)).toMatchObject({ status: 'pending', authorization: null });

      expect(await payCheckoutWithCard(checkout.authorizationUrl, '4084084084084081')).toBe(200);
      const held = await provider.verifyAuthorization('test', reference);
      expect(held).toMatchObject({ reference, status: 'reserved', authorization: { reusable: true, last4: '4081' } });
      expect(held?.amount.toString()).toBe('1500.00');
      const captured = await provider.captureAuthorization('test', { reference, currency: 'NGN' });
      expect([captured.status, captured.amount.toString()]).toEqual(['captured', '1500.00']);
    });

    it('hold checkout: a different request under the same reference is refused', async () => {
      const reference = uniqueReference('hold');
      await provider.initializeHoldCheckout('test', { reference, email: 'new-customer@example.com', amount: ngn('10.00'), currency: 'NGN' });
      await expect(provider.initializeHoldCheckout('test', { reference, email: 'new-customer@example.com', amount: ngn('11.00'), currency: 'NGN' })).rejects.toBeInstanceOf(
        ProviderRejectedError,
      );
    });
  });

  describe('refunds', () => {
    it('a partial refund is pending with its exact amount; the remainder can be refunded, no more', async () => {
      const { reference } = await paidCheckout('1000.00');
      const first = await provider.refund('test', { transactionReference: reference, amount: ngn('400.10') });
      expect(first).toMatchObject({ status: 'pending', currency: 'NGN', transactionReference: reference });
      expect(first.amount.toString()).toBe('400.10');
      expect(first.providerId).toMatch(/^\d+$/);

      const rest = await provider.refund('test', { transactionReference: reference });
      expect(rest.amount.toString()).toBe('599.90');

      const over = provider.refund('test', { transactionReference: reference, amount: ngn('0.01') });
      await expect(over).rejects.toBeInstanceOf(ProviderRejectedError);
      await expect(over).rejects.toMatchObject({ providerStatus: 400 });
    });

    it('a refund above the transaction amount is a ProviderRejectedError', async () => {
      const { reference } = await paidCheckout('1000.00');
      await expect(provider.refund('test', { transactionReference: reference, amount: ngn('1000.01') })).rejects.toMatchObject({
        code: 'provider_error',
        providerStatus: 400,
      });
    });

    // Issue 12 item 2: Paystack's /refund takes no idempotency key, so the adapter sends none and a
    // caller unsure whether a first call went through lists the transaction's refunds first.
    it('asking twice refunds twice (no idempotency key); listRefunds names every refund of the transaction, no other', async () => {
      const { reference } = await paidCheckout('1000.00');
      const other = await paidCheckout('50.00');
      const first = await provider.refund('test', { transactionReference: reference, amount: ngn('300.00') });
      const second = await provider.refund('test', { transactionReference: reference, amount: ngn('300.00') });
      await provider.refund('test', { transactionReference: other.reference });
      expect(second.providerId).not.toBe(first.providerId);
      const listed = await provider.listRefunds('test', reference);
      expect(listed.map((refund) => [refund.providerId, refund.amount.toString(), refund.currency, refund.transactionReference])).toEqual([
        [first.providerId, '300.00', 'NGN', reference],
        [second.providerId, '300.00', 'NGN', reference],
      ]);
      expect(await provider.listRefunds('test', uniqueReference('none'))).toEqual([]);
    });

    it('a refund of a transaction refunded in full is refused with code transaction_reversed', async () => {
      const { reference } = await paidCheckout('1000.00');
      await provider.refund('test', { transactionReference: reference });
      await expect(provider.refund('test', { transactionReference: reference, amount: ngn('1.00') })).rejects.toMatchObject({ providerStatus: 400, providerCode: 'transaction_reversed' });
    });

    it('refunding an unknown transaction, or a test transaction in live mode, is a 404 rejection', async () => {
      await expect(provider.refund('test', { transactionReference: uniqueReference('missing') })).rejects.toMatchObject({ providerStatus: 404 });
      const { reference } = await paidCheckout('1000.00');
      await expect(provider.refund('live', { transactionReference: reference })).rejects.toMatchObject({ providerStatus: 404 });
    });
  });
});
