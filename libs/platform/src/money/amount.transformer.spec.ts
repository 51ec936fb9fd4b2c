import fc from 'fast-check';
import { Amount, amountTransformer, InvalidAmountError } from './index';

describe('numeric(20,2) column transformer', () => {
  it('99,999,999.99 round-trips through the numeric column transformer', () => {
    const amount = Amount.parse('99999999.99');
    const stored = amountTransformer.to(amount);
    expect(stored).toBe('99999999.99');
    expect(amountTransformer.from(stored as string)?.toMinor()).toBe(9_999_999_999n);
  });

  it('writes the canonical two-decimal string PostgreSQL returns, so TypeORM sees an unchanged amount as unchanged', () => {
    expect(amountTransformer.to(Amount.parse(100.1))).toBe('100.10');
    expect(amountTransformer.to(Amount.parse('5'))).toBe('5.00');
    expect(amountTransformer.to(Amount.parse('-0.05'))).toBe('-0.05');
  });

  it('reads node-postgres numeric strings exactly: "100.10" is 10010 minor units', () => {
    expect(amountTransformer.from('100.10')?.toMinor()).toBe(10010n);
    expect(amountTransformer.from('-0.01')?.toMinor()).toBe(-1n);
  });

  it('the largest numeric(20,2) value survives the round trip', () => {
    const stored = '999999999999999999.99';
    expect(amountTransformer.to(amountTransformer.from(stored))).toBe(stored);
  });

  it('null and undefined pass through (nullable columns, partial updates)', () => {
    expect(amountTransformer.to(null)).toBeNull();
    expect(amountTransformer.to(undefined)).toBeUndefined();
    expect(amountTransformer.from(null)).toBeNull();
  });

  it('writing a float or a string instead of an Amount is a bug and throws', () => {
    expect(() => amountTransformer.to(100.1 as unknown as Amount)).toThrow(TypeError);
    expect(() => amountTransformer.to('100.10' as unknown as Amount)).toThrow(TypeError);
  });

  it('a database value that is not a two-decimal number (NaN numeric, more scale) throws rather than being rounded', () => {
    expect(() => amountTransformer.from('NaN')).toThrow(InvalidAmountError);
    expect(() => amountTransformer.from('1.005')).toThrow(InvalidAmountError);
  });

  it('property: every numeric(20,2) value round-trips from(to(x)) unchanged', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n - 1n), max: 10n ** 20n - 1n }), (minor) => {
        const amount = Amount.fromMinor(minor);
        const stored = amountTransformer.to(amount) as string;
        expect(stored).toMatch(/^-?\d{1,18}\.\d{2}$/);
        expect(amountTransformer.from(stored)?.toMinor()).toBe(minor);
      }),
    );
  });
});
