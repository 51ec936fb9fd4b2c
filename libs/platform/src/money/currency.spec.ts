import { CURRENCIES, CURRENCY_MINOR_DIGITS, InvalidCurrencyError, isCurrency, parseCurrency } from './index';

describe('currencies', () => {
  it('the gateway settles in NGN, USD, GBP and KES', () => {
    expect([...CURRENCIES]).toEqual(['NGN', 'USD', 'GBP', 'KES']);
  });

  it('every supported currency has a two-digit minor unit', () => {
    expect(CURRENCIES.map((currency) => CURRENCY_MINOR_DIGITS[currency])).toEqual([2, 2, 2, 2]);
  });

  it.each(['NGN', 'USD', 'GBP', 'KES'])('%s is a currency', (code) => {
    expect(isCurrency(code)).toBe(true);
    expect(parseCurrency(code)).toBe(code);
  });

  it.each(['ngn', 'EUR', 'NGN ', '', 'toString', 'constructor', null, undefined, 566, ['NGN']])('%p is not a currency', (value) => {
    expect(isCurrency(value)).toBe(false);
    expect(() => parseCurrency(value)).toThrow(InvalidCurrencyError);
  });

  it('the error lists the accepted codes', () => {
    expect(() => parseCurrency('EUR')).toThrow('currency must be one of NGN, USD, GBP, KES, got "EUR"');
  });
});
