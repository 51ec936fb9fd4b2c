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
    it('reserve → partial capture: the capture is a successful, verifiable transaction with a fee; capture is idempotent', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      const hold = await provider.reserveAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('3000.00'), currency: 'NGN' });
      expect(hold).toMatchObject({ reference, status: 'reserved', currency: 'NGN', fee: null });
      expect(hold.amount.toString()).toBe('3000.00');

      const captured = await provider.captureAuthorization('test', { reference, amount: ngn('2500.50') });
      expect(captured.status).toBe('captured');
      expect(captured.amount.toString()).toBe('2500.50');
      expect(captured.reservedAmount.toString()).toBe('3000.00');
      expect(captured.fee?.toString()).toBe('137.51'); // 1.5 % of 2,500.50 = 37.5075 → 37.51, + ₦100

      const again = await provider.captureAuthorization('test', { reference, amount: ngn('2500.50') });
      expect(again.amount.toString()).toBe('2500.50');
      const transaction = await provider.verifyTransaction('test', reference);
      expect(transaction).toMatchObject({ reference, status: 'success' });
      expect(transaction?.amount.toString()).toBe('2500.50');

      await expect(provider.releaseAuthorization('test', reference)).rejects.toMatchObject({ providerStatus: 400 });
    });

    it('reserve → release; capturing afterwards is refused', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      await provider.reserveAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('800.00'), currency: 'NGN' });
      const released = await provider.releaseAuthorization('test', reference);
      expect(released).toMatchObject({ reference, status: 'released' });
      await expect(provider.captureAuthorization('test', { reference })).rejects.toBeInstanceOf(ProviderRejectedError);
    });

    it('an issuer refusal is a hold with status failed, not an exception', async () => {
      const { authorizationCode } = await paidCheckout('100.00', '5399838383838381');
      const hold = await provider.reserveAuthorization('test', {
        reference: uniqueReference('hold'),
        authorizationCode,
        email: 'ada@example.com',
        amount: ngn('800.00'),
        currency: 'NGN',
      });
      expect(hold).toMatchObject({ status: 'failed', gatewayResponse: 'Insufficient Funds' });
    });

    it('capturing more than reserved is refused; an unknown hold is a 404 rejection', async () => {
      const { authorizationCode } = await paidCheckout('100.00');
      const reference = uniqueReference('hold');
      await provider.reserveAuthorization('test', { reference, authorizationCode, email: 'ada@example.com', amount: ngn('800.00'), currency: 'NGN' });
      await expect(provider.captureAuthorization('test', { reference, amount: ngn('800.01') })).rejects.toMatchObject({ providerStatus: 400 });
      const unknown = provider.captureAuthorization('test', { reference: uniqueReference('missing') });
      await expect(unknown).rejects.toMatchObject({ providerStatus: 404, isNotFound: true, providerMessage: 'Reservation not found' });
      await expect(provider.releaseAuthorization('test', uniqueReference('missing'))).rejects.toMatchObject({ providerStatus: 404 });
      await expect(
        provider.reserveAuthorization('test', { reference: uniqueReference('hold'), authorizationCode: 'AUTH_unknown', email: 'ada@example.com', amount: ngn('1.00'), currency: 'NGN' }),
      ).rejects.toMatchObject({ providerStatus: 400, providerMessage: 'Invalid authorization code' });
    });
  });

  describe('refunds', () => {
    it('a partial refund is pending with its exact amount; the remainder can be refunded, no more', async () => {
      const { reference } = await paidCheckout('1000.00');
      const first = await provider.refund('test', { transactionReference: reference, amount: ngn('400.10'), reference: uniqueReference('rf') });
      expect(first).toMatchObject({ status: 'pending', currency: 'NGN', transactionReference: reference });
      expect(first.amount.toString()).toBe('400.10');
      expect(first.providerId).toMatch(/^\d+$/);

      const rest = await provider.refund('test', { transactionReference: reference, reference: uniqueReference('rf') });
      expect(rest.amount.toString()).toBe('599.90');

      const over = provider.refund('test', { transactionReference: reference, amount: ngn('0.01'), reference: uniqueReference('rf') });
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

    it('retrying a refund with the same reference returns the first refund instead of refunding twice', async () => {
      const { reference } = await paidCheckout('1000.00');
      const input = { transactionReference: reference, amount: ngn('300.00'), reference: uniqueReference('rf') };
      const first = await provider.refund('test', input);
      const retry = await provider.refund('test', input);
      expect(retry.providerId).toBe(first.providerId);
      // Only 300.00 was taken: 700.00 is still refundable, 700.01 is not.
      await expect(provider.refund('test', { transactionReference: reference, amount: ngn('700.01') })).rejects.toMatchObject({ providerStatus: 400 });
      expect((await provider.refund('test', { transactionReference: reference, amount: ngn('700.00') })).amount.toString()).toBe('700.00');
    });

    it('refunding an unknown transaction, or a test transaction in live mode, is a 404 rejection', async () => {
      await expect(provider.refund('test', { transactionReference: uniqueReference('missing') })).rejects.toMatchObject({ providerStatus: 404 });
      const { reference } = await paidCheckout('1000.00');
      await expect(provider.refund('live', { transactionReference: reference })).rejects.toMatchObject({ providerStatus: 404 });
    });
  });
});
