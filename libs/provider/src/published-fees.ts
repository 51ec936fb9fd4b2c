import { Amount, computeFee, type Currency, type FeeSchedule } from '@gateway/platform';

/**
 * The provider's published price of one successful local payment, per currency: what a fee
 * preview estimates before the provider reports the real fee at verify. Source: Paystack's
 * "Transactions pricing" (support.paystack.com) and FAQ (paystack.com/faqs): Nigeria 1.5 % +
 * ₦100 on local channels, the ₦100 waived below ₦2,500, the total capped at ₦2,000; USD
 * transactions 3.9 %; Kenya 2.9 % on cards. Paystack serves no GBP: the simulator's 3.9 % stands in.
 * The percentage is rounded half-up to the cent, as the provider simulator does.
 */
export const PUBLISHED_PROVIDER_FEES: Readonly<Record<Currency, FeeSchedule>> = {
  NGN: { percent: '1.5', rounding: 'half-up', flat: Amount.parse('100'), flatWaivedBelow: Amount.parse('2500'), cap: Amount.parse('2000') },
  USD: { percent: '3.9', rounding: 'half-up' },
  GBP: { percent: '3.9', rounding: 'half-up' },
  KES: { percent: '2.9', rounding: 'half-up' },
};

/** The provider fee a successful payment of `amount` is expected to carry (an estimate: verify ledgers what the provider reports). */
export function estimateProviderFee(amount: Amount, currency: Currency): Amount {
  return computeFee(amount, PUBLISHED_PROVIDER_FEES[currency]);
}
