import { Amount } from '@gateway/platform';
import { isLargeWithdrawal } from './large-withdrawal';

describe('large withdrawal threshold', () => {
  const thresholds = { NGN: '1000000', USD: '5000.50' };

  it('a withdrawal of exactly NGN 1,000,000 is not large; one kobo more is', () => {
    expect(isLargeWithdrawal(Amount.parse('1000000'), 'NGN', thresholds)).toBe(false);
    expect(isLargeWithdrawal(Amount.parse('1000000.01'), 'NGN', thresholds)).toBe(true);
  });

  it('compares cents exactly in other configured currencies', () => {
    expect(isLargeWithdrawal(Amount.parse('5000.50'), 'USD', thresholds)).toBe(false);
    expect(isLargeWithdrawal(Amount.parse('5000.51'), 'USD', thresholds)).toBe(true);
  });

  it('treats every withdrawal in a currency without a threshold as large', () => {
    expect(isLargeWithdrawal(Amount.parse('1'), 'GBP', thresholds)).toBe(true);
  });
});
