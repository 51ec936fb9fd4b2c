import { formatMoney, parseCurrency, parseMinorUnits } from './money';

describe('parseMinorUnits', () => {
  it('accepts positive integers as numbers or digit strings', () => {
    expect(parseMinorUnits(200_000)).toBe(200_000);
    expect(parseMinorUnits('200000')).toBe(200_000);
    expect(parseMinorUnits(' 42 ')).toBe(42);
  });

  it.each([[0], [-1], [1.5], ['1.5'], ['-3'], ['1e3'], [''], ['abc'], [null], [true], [Number.MAX_SAFE_INTEGER + 1], ['9007199254740992']])(
    'rejects %p',
    (value) => {
      expect(() => parseMinorUnits(value)).toThrow('amount must be a positive integer in minor units');
    },
  );
});

describe('parseCurrency', () => {
  it('defaults to NGN and normalises case', () => {
    expect(parseCurrency(undefined)).toBe('NGN');
    expect(parseCurrency('usd')).toBe('USD');
  });

  it('rejects unsupported currencies', () => {
    expect(() => parseCurrency('EUR')).toThrow(/Currency not supported/);
  });
});

describe('formatMoney', () => {
  it('formats minor units with grouping and two decimals, without floats', () => {
    expect(formatMoney(250_000, 'NGN')).toBe('₦2,500.00');
    expect(formatMoney(5, 'USD')).toBe('$0.05');
    expect(formatMoney(123_456_789_01, 'GBP')).toBe('£123,456,789.01');
    expect(formatMoney(1_000, 'KES')).toBe('KSh 10.00');
  });
});
