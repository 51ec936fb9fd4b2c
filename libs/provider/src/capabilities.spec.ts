import { DomainError } from '@gateway/platform';
import { paystackCapabilities, PROVIDER_CAPABILITIES, ProviderCapabilities, simulatorCapabilities } from './capabilities';
import { adapterFor } from './testing/adapter-harness';

describe('provider capabilities per currency', () => {
  describe('Paystack, per its documentation', () => {
    const paystack = paystackCapabilities(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);

    it('takes payments, refunds and disputes in every currency the account enables', () => {
      for (const capability of ['payments', 'refunds', 'disputes'] as const) {
        expect(paystack.currenciesFor(capability)).toEqual(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);
      }
      expect(paystack.currencies).toEqual(['NGN', 'GHS', 'ZAR', 'KES', 'USD']);
    });

    it('holds (preauthorization) in ZAR only; transfers where a recipient type exists; dedicated accounts in NGN', () => {
      expect(paystack.currenciesFor('holds')).toEqual(['ZAR']);
      expect(paystack.supports('holds', 'NGN')).toBe(false);
      expect(paystack.supports('holds', 'zar')).toBe(true);
      expect(paystack.currenciesFor('transfers')).toEqual(['NGN', 'GHS', 'ZAR', 'KES']);
      expect(paystack.supports('transfers', 'USD')).toBe(false);
      expect(paystack.currenciesFor('dedicated_accounts')).toEqual(['NGN']);
      // Paystack has no authorize-only checkout: a hold for a customer without a saved card is refused up front.
      expect(paystack.currenciesFor('hold_checkouts')).toEqual([]);
    });

    it('an account with NGN only: no GHS payments, no holds at all', () => {
      const naira = paystackCapabilities(['NGN']);
      expect(naira.supports('payments', 'GHS')).toBe(false);
      expect(naira.currenciesFor('holds')).toEqual([]);
    });

    it('never GBP', () => {
      expect(() => paystackCapabilities(['NGN', 'GBP'])).toThrow('not GBP');
    });
  });

  it('the simulator offers every capability in each of its currencies (payouts where a recipient type exists, naira dedicated accounts)', () => {
    const simulator = simulatorCapabilities(['NGN', 'USD', 'GBP', 'KES']);
    for (const capability of ['payments', 'refunds', 'disputes', 'holds'] as const) {
      expect(simulator.currenciesFor(capability)).toEqual(['NGN', 'USD', 'GBP', 'KES']);
    }
    expect(simulator.currenciesFor('transfers')).toEqual(['NGN', 'KES']);
    expect(simulator.currenciesFor('dedicated_accounts')).toEqual(['NGN']);
    // Restricting its currencies is how a test proves a refusal against the simulator.
    expect(simulatorCapabilities(['NGN']).supports('payments', 'USD')).toBe(false);
  });

  it('require(): nothing for a supported pair; capability_not_supported (422) naming where it is available otherwise', () => {
    const paystack = paystackCapabilities(['NGN', 'ZAR']);
    expect(() => paystack.require('holds', 'ZAR')).not.toThrow();
    let error: unknown;
    try {
      paystack.require('holds', 'NGN');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'capability_not_supported',
      message: "Authorization holds in NGN are not supported by this gateway's payment provider (available in: ZAR).",
      fieldErrors: { currency: ['authorization holds are not supported in NGN'] },
    });
    expect(() => paystackCapabilities(['NGN']).require('holds', 'NGN')).toThrow('(not available in any currency)');
  });

  it('describe() lists every capability', () => {
    expect(Object.keys(paystackCapabilities(['NGN']).describe())).toEqual([...PROVIDER_CAPABILITIES]);
  });

  it("the adapter advertises each mode's account, and a test can replace what a mode advertises", () => {
    const provider = adapterFor('http://127.0.0.1:9', 1_000, undefined, {
      capabilities: { live: new ProviderCapabilities('paystack', ['NGN'], { payments: 'all', refunds: 'all', disputes: 'all', holds: [], hold_checkouts: [], transfers: [], dedicated_accounts: [] }) },
    });
    expect(provider.capabilities('test').supports('holds', 'NGN')).toBe(true);
    expect(provider.capabilities('live').supports('holds', 'NGN')).toBe(false);
    expect(() => provider.capabilities('live').require('transfers', 'NGN')).toThrow(DomainError);
  });
});
