import { Amount, hasAtMostTwoDecimals, InvalidAmountError, MAX_EXACT_NUMBER_INPUT, type InvalidAmountReason } from './index';
import fc from 'fast-check';

function refusal(input: unknown): InvalidAmountReason | 'accepted' {
  try {
    Amount.parse(input);
    return 'accepted';
  } catch (error) {
    if (error instanceof InvalidAmountError) return error.reason;
    throw error;
  }
}

describe('reading an amount off the wire', () => {
  it('100.10 NGN is 10010 kobo', () => {
    expect(Amount.parse(100.1).toMinor()).toBe(10010n);
    expect(Amount.parse('100.10').toMinor()).toBe(10010n);
  });

  it('the JSON number 100.1 is exactly 100.10 (its shortest round-trip string), not a binary approximation', () => {
    expect(Amount.parse(100.1).toString()).toBe('100.10');
    expect(Amount.parse(100.1).equals(Amount.fromMinor(10010n))).toBe(true);
  });

  it.each([
    [0.29, 29n],
    [1.15, 115n],
    [4.35, 435n],
    [19.99, 1999n],
    [0.07, 7n],
    [8.2, 820n],
  ])('%p parses to exactly %p minor units although ×100 of it is not an integer in floating point', (input, minor) => {
    expect(Number.isInteger(input * 100)).toBe(false); // the trap this test is about
    expect(Amount.parse(input).toMinor()).toBe(minor);
  });

  it('whole numbers, strings without decimals and one-decimal strings are accepted', () => {
    expect(Amount.parse(5000).toString()).toBe('5000.00');
    expect(Amount.parse('5000').toString()).toBe('5000.00');
    expect(Amount.parse('0.5').toString()).toBe('0.50');
  });

  it('trailing zeros past two places change nothing and are accepted: "1.500" is 1.50', () => {
    expect(Amount.parse('1.500').toMinor()).toBe(150n);
  });

  it('negative amounts parse (refunds, ledger debits) and -0 is plain zero', () => {
    expect(Amount.parse('-12.34').toMinor()).toBe(-1234n);
    expect(Amount.parse(-0.5).toString()).toBe('-0.50');
    expect(Amount.parse('-0.00').toString()).toBe('0.00');
    expect(Amount.parse(-0).isNegative()).toBe(false);
  });

  it('an Amount passed to parse is returned unchanged', () => {
    const amount = Amount.parse('7.00');
    expect(Amount.parse(amount)).toBe(amount);
  });

  it('parsing 100.101 is refused, as a number and as a string', () => {
    expect(refusal(100.101)).toBe('too-many-decimals');
    expect(refusal('100.101')).toBe('too-many-decimals');
    expect(() => Amount.parse('100.101')).toThrow(/at most 2 decimal places/);
  });

  it('float arithmetic results such as 0.1 + 0.2 (0.30000000000000004) are refused rather than silently rounded', () => {
    expect(refusal(0.1 + 0.2)).toBe('too-many-decimals');
    expect(refusal(1.005 - 0.005)).toBe('too-many-decimals'); // 0.9999999999999999
  });

  it('1e-7 is refused, as a number (hidden decimals) and as a string (exponent notation)', () => {
    expect(String(1e-7)).toBe('1e-7');
    expect(refusal(1e-7)).toBe('too-many-decimals');
    expect(refusal('1e-7')).toBe('malformed');
  });

  it.each([NaN, Infinity, -Infinity])('%p is refused as not finite', (input) => {
    expect(refusal(input)).toBe('not-finite');
  });

  it.each(['', ' ', 'abc', '1,000.00', '1 000', ' 1', '1 ', '+1', '.5', '5.', '1e3', '1E2', '0x10', '0b1', 'Infinity', 'NaN', '--1', '1.2.3', '١٢'])(
    'the string %p is refused as malformed',
    (input) => {
      expect(refusal(input)).toBe('malformed');
    },
  );

  it.each([null, undefined, true, {}, [], 10n, new Date(0)])('%p is refused as the wrong type', (input) => {
    expect(refusal(input)).toBe('wrong-type');
  });

  it('a 10 kB digit string is refused without being parsed', () => {
    expect(refusal('9'.repeat(10_000))).toBe('malformed');
  });

  it('a JSON number too big to carry its cents (12345678901234567.89 arrives as ...568) is refused', () => {
    const fromJson = JSON.parse('{"amount": 12345678901234567.89}').amount as number;
    expect(String(fromJson)).toBe('12345678901234568');
    expect(refusal(fromJson)).toBe('imprecise-number');
  });

  it('the largest exact JSON number, 9,999,999,999,999.99, is still accepted; the same value beyond it only as a string', () => {
    expect(Amount.parse(MAX_EXACT_NUMBER_INPUT).toString()).toBe('9999999999999.99');
    expect(refusal(10_000_000_000_000)).toBe('imprecise-number');
    expect(Amount.parse('10000000000000.00').toMinor()).toBe(1_000_000_000_000_000n);
  });

  it('999,999,999,999,999,999.99 (the numeric(20,2) maximum) parses from a string; one cent more is out of range', () => {
    expect(Amount.parse('999999999999999999.99').toMinor()).toBe(10n ** 20n - 1n);
    expect(Amount.parse('-999999999999999999.99').toMinor()).toBe(-(10n ** 20n - 1n));
    expect(refusal('1000000000000000000.00')).toBe('out-of-range');
  });

  it('the error says what was wrong and carries the input in the message', () => {
    expect(() => Amount.parse('12.345')).toThrow(new InvalidAmountError('too-many-decimals', 'amount must have at most 2 decimal places, got "12.345"'));
    expect(() => Amount.parse('12.345')).toThrow(InvalidAmountError);
  });
});

describe('minor units', () => {
  it('10010n kobo is 100.10', () => {
    expect(Amount.fromMinor(10010n).toString()).toBe('100.10');
    expect(Amount.fromMinor(10010).toString()).toBe('100.10');
    expect(Amount.fromMinor('10010').toString()).toBe('100.10');
  });

  it('negative and sub-unit minor amounts format with a leading zero', () => {
    expect(Amount.fromMinor(-5n).toString()).toBe('-0.05');
    expect(Amount.fromMinor(7).toString()).toBe('0.07');
    expect(Amount.fromMinor(0n).toString()).toBe('0.00');
  });

  it.each([1.5, NaN, Number.MAX_SAFE_INTEGER + 1, '1.5', '1e3', '', ' 1'])('fromMinor refuses %p: minor units are integers', (input) => {
    expect(() => Amount.fromMinor(input)).toThrow(InvalidAmountError);
  });

  it('fromMinor refuses more than numeric(20,2) can hold', () => {
    expect(() => Amount.fromMinor(10n ** 20n)).toThrow(expect.objectContaining({ reason: 'out-of-range' }));
  });

  it('an amount too large for an exact JSON number refuses toNumber/toJSON instead of dropping cents', () => {
    expect(Amount.parse('9999999999999.99').toNumber()).toBe(9999999999999.99);
    expect(Amount.parse('-9999999999999.99').toJSON()).toBe(-9999999999999.99);
    const huge = Amount.parse('12345678901234567.89');
    expect(() => huge.toNumber()).toThrow(expect.objectContaining({ reason: 'imprecise-number' }));
    expect(() => JSON.stringify({ huge })).toThrow(InvalidAmountError);
    expect(huge.toString()).toBe('12345678901234567.89');
  });

  it('raw node-postgres parameters get the exact numeric text via toPostgres()', () => {
    expect(Amount.parse(100.1).toPostgres()).toBe('100.10');
    expect(Amount.fromMinor(-5n).toPostgres()).toBe('-0.05');
  });

  it('the provider gets integer minor units; the client gets major-unit JSON numbers', () => {
    const amount = Amount.parse('2500.05');
    expect(amount.toMinor()).toBe(250005n);
    expect(JSON.stringify({ amount })).toBe('{"amount":2500.05}');
    expect(amount.toNumber()).toBe(2500.05);
  });
});

describe('hasAtMostTwoDecimals', () => {
  it.each([
    [100.1, true],
    ['100.10', true],
    [100, true],
    ['1.500', true],
    [-3.25, true],
    [100.101, false],
    ['100.101', false],
    [0.1 + 0.2, false],
    [1e-7, false],
    ['1e-7', false],
    [NaN, false],
    [Infinity, false],
    ['abc', false],
    ['', false],
  ])('%p → %p', (input, expected) => {
    expect(hasAtMostTwoDecimals(input)).toBe(expected);
  });
});

describe('round-trip properties', () => {
  const anyMinor = fc.bigInt({ min: -(10n ** 20n - 1n), max: 10n ** 20n - 1n });
  // Magnitudes up to MAX_EXACT_NUMBER_INPUT, i.e. what a JSON number can carry exactly.
  const jsonSafeMinor = fc.bigInt({ min: -999_999_999_999_999n, max: 999_999_999_999_999n });

  it('parse(toString()) and fromMinor(toMinor()) are the identity for every numeric(20,2) value', () => {
    fc.assert(
      fc.property(anyMinor, (minor) => {
        const amount = Amount.fromMinor(minor);
        expect(Amount.parse(amount.toString()).toMinor()).toBe(minor);
        expect(amount.toString()).toMatch(/^-?\d+\.\d\d$/);
      }),
    );
  });

  it('for random 2-decimal JSON numbers n, parse(n) and parse(String(n)) give the decimal that was written', () => {
    fc.assert(
      fc.property(jsonSafeMinor, (minor) => {
        const written = Amount.fromMinor(minor).toString(); // what a client types, e.g. "-123.45"
        const n = JSON.parse(written) as number; // what the server receives
        expect(Amount.parse(n).toMinor()).toBe(minor);
        expect(Amount.parse(String(n)).toMinor()).toBe(minor);
        expect(Amount.parse(n).toNumber()).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });

  it('for random numbers with three or more decimals, parse refuses instead of rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: 1, max: 9 }), (milli, lastDigit) => {
        const text = `${milli < 0 ? '-' : ''}${Math.abs(milli)}.00${lastDigit}`; // always a non-zero third decimal
        expect(() => Amount.parse(text)).toThrow(InvalidAmountError);
        expect(() => Amount.parse(Number(text))).toThrow(InvalidAmountError);
      }),
    );
  });
});

describe('the plain-string path and decimal.js read a string alike', () => {
  // Amount.parse reads "-?d{1,18}(.d{1,2})?" itself; the same value with more digits (a trailing
  // zero past two decimals, leading zeros past 18 whole digits) takes decimal.js's path.
  const plainText = fc.record({
    minor: fc.bigInt({ min: -(10n ** 20n - 1n), max: 10n ** 20n - 1n }),
    decimals: fc.constantFrom(0, 1, 2),
    leadingZeros: fc.integer({ min: 0, max: 3 }),
  });

  function render(minor: bigint, decimals: number, leadingZeros: number): string | null {
    const magnitude = minor < 0n ? -minor : minor;
    const cents = (magnitude % 100n).toString().padStart(2, '0');
    if (decimals < 2 && !cents.endsWith('0')) return null;
    if (decimals === 0 && cents !== '00') return null;
    const fraction = decimals === 0 ? '' : `.${cents.slice(0, decimals)}`;
    return `${minor < 0n ? '-' : ''}${'0'.repeat(leadingZeros)}${magnitude / 100n}${fraction}`;
  }

  it('for random amounts in every plain form, both paths give the amount written', () => {
    fc.assert(
      fc.property(plainText, ({ minor, decimals, leadingZeros }) => {
        const text = render(minor, decimals, leadingZeros);
        if (text === null) return;
        const viaDecimalJs = text.includes('.') ? `${text}0` : `${text}.000`;
        expect(Amount.parse(text).toMinor()).toBe(minor);
        expect(Amount.parse(viaDecimalJs).toMinor()).toBe(minor);
        expect(Amount.parse(`${text.startsWith('-') ? '-' : ''}${'0'.repeat(19)}${text.replace(/^-/, '')}`).toMinor()).toBe(minor);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['-0.0', 0n],
    ['007.5', 750n],
    ['999999999999999999.99', 10n ** 20n - 1n],
    ['-999999999999999999.99', -(10n ** 20n - 1n)],
  ])('%p is %p minor units', (text, minor) => {
    expect(Amount.parse(text).toMinor()).toBe(minor);
  });

  it.each([
    ['1000000000000000000.00', 'out-of-range'],
    ['1.', 'malformed'],
    ['.5', 'malformed'],
    ['+1', 'malformed'],
    ['1.001', 'too-many-decimals'],
    [' 1', 'malformed'],
    ['1\n', 'malformed'],
  ])('%p is still refused (%s)', (text, reason) => {
    expect(refusal(text)).toBe(reason);
  });
});
