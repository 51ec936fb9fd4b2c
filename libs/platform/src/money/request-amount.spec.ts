import { DomainError } from '../errors';
import { parseRequestAmount } from './request-amount';

describe('parseRequestAmount', () => {
  it('reads an exact amount', () => {
    expect(parseRequestAmount(12.5).toString()).toBe('12.50');
    expect(parseRequestAmount(0).toString()).toBe('0.00');
  });

  it.each([[1e-7], [1e21], [1e15], [0.1 + 0.2], ['abc'], [Number.NaN], [null]])('refuses %p as validation_error naming the field', (input) => {
    expect(() => parseRequestAmount(input, 'fee')).toThrow(DomainError);
    try {
      parseRequestAmount(input, 'fee');
    } catch (error) {
      expect(error).toMatchObject({ code: 'validation_error', fieldErrors: { fee: [expect.any(String)] } });
    }
  });
});
