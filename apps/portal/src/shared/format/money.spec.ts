import { decimalString, formatMoney, fromMinorUnits, minorDigits, toMinorUnits } from './money';

describe('money formatting', () => {
  it('formats an API amount per currency, with its minor digits', () => {
    expect(formatMoney(1500.5, 'NGN', 'en-NG')).toBe('₦1,500.50');
    expect(formatMoney(0, 'USD', 'en-US')).toBe('$0.00');
    expect(formatMoney(9740, 'GBP', 'en-GB')).toBe('£9,740.00');
    expect(formatMoney(12.3, 'KES', 'en-KE')).toMatch(/^Ksh\s?12\.30$/);
  });

  it('follows the locale for separators', () => {
    // Intl puts a no-break space before the symbol.
    expect(formatMoney(1234567.89, 'USD', 'de-DE')).toBe('1.234.567,89\u00a0$');
  });

  it('keeps amounts beyond float precision exact (formats the decimal string, not a float)', () => {
    expect(formatMoney('12345678901234567.05', 'NGN', 'en-NG')).toBe('₦12,345,678,901,234,567.05');
    expect(formatMoney(0.1, 'USD', 'en-US')).toBe('$0.10');
  });

  it('shows an unknown currency code as the plain amount', () => {
    expect(formatMoney(5, 'ZZZZ', 'en-US')).toBe('5 ZZZZ');
  });

  it('reads the shortest exact decimal of a number', () => {
    expect(decimalString(2500.5)).toBe('2500.5');
    expect(decimalString(1e21)).toBe('1000000000000000000000');
  });
});

describe('minor units', () => {
  it('partial refund of 2,500.50 leaves 7,499.50 refundable of 10,000', () => {
    const left = (toMinorUnits(10000) as bigint) - (toMinorUnits(2500.5) as bigint);
    expect(fromMinorUnits(left)).toBe('7499.50');
  });

  it('0.1 + 0.2 refunded of 0.30 leaves exactly nothing', () => {
    const refunded = (toMinorUnits(0.1) as bigint) + (toMinorUnits(0.2) as bigint);
    expect(fromMinorUnits((toMinorUnits('0.30') as bigint) - refunded)).toBe('0.00');
  });

  it('refuses text that is not a plain amount of the currency', () => {
    expect(toMinorUnits('12.345')).toBeNull();
    expect(toMinorUnits('-1')).toBeNull();
    expect(toMinorUnits('1,000')).toBeNull();
    expect(toMinorUnits('abc')).toBeNull();
    expect(toMinorUnits('12.')).toBe(1200n);
    expect(toMinorUnits('0.05')).toBe(5n);
  });

  it('knows the minor digits of the gateway currencies', () => {
    expect(['NGN', 'USD', 'GBP', 'KES'].map(minorDigits)).toEqual([2, 2, 2, 2]);
  });

  it('writes small and zero-digit amounts', () => {
    expect(fromMinorUnits(5n)).toBe('0.05');
    expect(fromMinorUnits(-150n)).toBe('-1.50');
    expect(fromMinorUnits(42n, 0)).toBe('42');
  });
});
