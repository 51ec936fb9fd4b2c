import { DomainError, PAYSTACK_CURRENCIES, type ProviderProfile } from '@gateway/platform';

/**
 * What the configured provider account can do, per currency. A capability the account lacks is
 * refused with `capability_not_supported` (422) before anything is written or sent — never a
 * half-done operation. See docs/provider-adapter.md#capabilities.
 */
export const PROVIDER_CAPABILITIES = ['payments', 'refunds', 'holds', 'hold_checkouts', 'transfers', 'dedicated_accounts', 'disputes'] as const;
export type ProviderCapability = (typeof PROVIDER_CAPABILITIES)[number];

/** Currencies a capability is limited to by the provider, whatever the account enables; `all` = no limit. */
export type CapabilityRules = Readonly<Record<ProviderCapability, readonly string[] | 'all'>>;

/** Where the gateway can pay out: currencies with a bank-account recipient type (nuban, ghipss, basa, kepss). */
const TRANSFER_CURRENCIES = ['NGN', 'GHS', 'ZAR', 'KES'];

/**
 * Paystack's documented limits:
 * - holds: "The Preauthorization API enables South African merchants…", currency "Only ZAR is
 *   supported for now" (API reference, Card Preauthorization);
 * - transfers: NGN, ZAR, KES, GHS (PaystackOSS/openapi `TransferInitiate.currency`; the guide
 *   "Creating Transfer Recipients" gives a recipient type for each); USD has none;
 * - dedicated accounts: "only available to registered businesses in Nigeria" (guide "Dedicated
 *   Virtual Accounts"): NGN;
 * - payments, refunds and disputes: every currency the account serves;
 * - hold checkouts (a hold for a customer with no saved card, authorized on the hosted page): none —
 *   Paystack documents no authorize-only checkout; the simulator's is its own extension.
 */
export const PAYSTACK_RULES: CapabilityRules = {
  payments: 'all',
  refunds: 'all',
  disputes: 'all',
  holds: ['ZAR'],
  hold_checkouts: [],
  transfers: TRANSFER_CURRENCIES,
  dedicated_accounts: ['NGN'],
};

/**
 * The simulator offers every flow in every currency it serves, so each stays testable; payouts
 * still need a recipient type for the currency, and its dedicated accounts are naira accounts.
 */
export const SIMULATOR_RULES: CapabilityRules = {
  payments: 'all',
  refunds: 'all',
  disputes: 'all',
  holds: 'all',
  hold_checkouts: 'all',
  transfers: TRANSFER_CURRENCIES,
  dedicated_accounts: ['NGN'],
};

const DESCRIPTIONS: Readonly<Record<ProviderCapability, string>> = {
  payments: 'Payments',
  refunds: 'Refunds',
  holds: 'Authorization holds',
  hold_checkouts: 'Authorization holds for customers without a saved card',
  transfers: 'Transfers',
  dedicated_accounts: 'Dedicated virtual accounts',
  disputes: 'Disputes',
};

export class ProviderCapabilities {
  private readonly byCapability: ReadonlyMap<ProviderCapability, readonly string[]>;

  /**
   * @param provider which provider's documented limits apply
   * @param accountCurrencies the currencies enabled on the provider account (upper-case ISO codes)
   * @param rules the provider's own limits per capability
   */
  constructor(
    readonly provider: ProviderProfile,
    accountCurrencies: readonly string[],
    rules: CapabilityRules,
  ) {
    const enabled = [...new Set(accountCurrencies.map((currency) => currency.toUpperCase()))];
    this.byCapability = new Map(
      PROVIDER_CAPABILITIES.map((capability) => {
        const rule = rules[capability];
        return [capability, Object.freeze(rule === 'all' ? enabled : enabled.filter((currency) => rule.includes(currency)))];
      }),
    );
  }

  /** The currencies the account takes payments in. */
  get currencies(): readonly string[] {
    return this.currenciesFor('payments');
  }

  currenciesFor(capability: ProviderCapability): readonly string[] {
    return this.byCapability.get(capability) ?? [];
  }

  supports(capability: ProviderCapability, currency: string): boolean {
    return this.currenciesFor(capability).includes(currency.toUpperCase());
  }

  /**
   * Throws unless the account offers `capability` in `currency`. Call it before writing anything.
   * @throws capability_not_supported (422), naming the currencies that would be accepted
   */
  require(capability: ProviderCapability, currency: string): void {
    if (this.supports(capability, currency)) return;
    const available = this.currenciesFor(capability);
    const where = available.length > 0 ? `available in: ${available.join(', ')}` : 'not available in any currency';
    throw new DomainError(
      'capability_not_supported',
      `${DESCRIPTIONS[capability]} in ${currency.toUpperCase()} are not supported by this gateway's payment provider (${where}).`,
      { currency: [`${DESCRIPTIONS[capability].toLowerCase()} are not supported in ${currency.toUpperCase()}`] },
    );
  }

  /** Every capability with its currencies, for logs and diagnostics. */
  describe(): Record<ProviderCapability, readonly string[]> {
    return Object.fromEntries(PROVIDER_CAPABILITIES.map((capability) => [capability, this.currenciesFor(capability)])) as Record<
      ProviderCapability,
      readonly string[]
    >;
  }
}

/** A Paystack account with these currencies enabled; refuses currencies Paystack never serves (GBP, …). */
export function paystackCapabilities(accountCurrencies: readonly string[]): ProviderCapabilities {
  const unserved = accountCurrencies.filter((currency) => !PAYSTACK_CURRENCIES.includes(currency.toUpperCase()));
  if (unserved.length > 0) throw new Error(`Paystack serves ${PAYSTACK_CURRENCIES.join(', ')}; not ${unserved.join(', ')}`);
  return new ProviderCapabilities('paystack', accountCurrencies, PAYSTACK_RULES);
}

/** The simulator with these currencies: every capability in each (see SIMULATOR_RULES). */
export function simulatorCapabilities(accountCurrencies: readonly string[]): ProviderCapabilities {
  return new ProviderCapabilities('simulator', accountCurrencies, SIMULATOR_RULES);
}

export function capabilitiesFor(profile: ProviderProfile, accountCurrencies: readonly string[]): ProviderCapabilities {
  return profile === 'paystack' ? paystackCapabilities(accountCurrencies) : simulatorCapabilities(accountCurrencies);
}
