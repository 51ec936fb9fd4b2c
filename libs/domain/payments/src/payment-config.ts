import { Amount, type AmountLimits, type AppConfig, CURRENCIES, type Currency, DEFAULT_AMOUNT_LIMITS } from '@gateway/platform';

/**
 * The configured amount limits; a currency without a configured minimum keeps the default one.
 * Read once per configuration (it never changes after boot): every payment, and every item of a
 * 1,000-item bulk batch, checks its amount against them.
 */
export function amountLimits(config: AppConfig): AmountLimits {
  let limits = limitsByConfig.get(config);
  if (!limits) {
    const minimums = Object.fromEntries(
      CURRENCIES.map((c) => [c, config.payments.minimumAmounts[c] ? Amount.parse(config.payments.minimumAmounts[c]) : DEFAULT_AMOUNT_LIMITS.minimumByCurrency[c]]),
    ) as Record<Currency, Amount>;
    limits = { max: Amount.parse(config.payments.maximumAmount), minimumByCurrency: minimums };
    limitsByConfig.set(config, limits);
  }
  return limits;
}

const limitsByConfig = new WeakMap<AppConfig, AmountLimits>();

/** The platform's fee per successful payment in `currency` before any per-developer override. */
export function defaultPlatformFee(config: AppConfig, currency: Currency): Amount {
  const configured = config.payments.platformFees[currency];
  return configured ? Amount.parse(configured) : Amount.zero();
}
