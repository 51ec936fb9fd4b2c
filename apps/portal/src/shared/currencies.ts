/** The gateway's currencies (the API's CURRENCIES, libs/platform/src/money/currency.ts), for filters. */
export const CURRENCIES = ['NGN', 'USD', 'GBP', 'KES'] as const;
export type Currency = (typeof CURRENCIES)[number];
