import { Amount } from '@gateway/platform';
import { estimateProviderFee } from './published-fees';

describe('published provider fees', () => {
  const fee = (amount: string, currency: 'NGN' | 'USD' | 'GBP' | 'KES') => estimateProviderFee(Amount.parse(amount), currency).toString();

  it('₦5,000 costs 1.5 % + ₦100 = ₦175.00', () => expect(fee('5000', 'NGN')).toBe('175.00'));
  it('₦2,000 is under ₦2,500: the ₦100 is waived, ₦30.00', () => expect(fee('2000', 'NGN')).toBe('30.00'));
  it('₦2,500.00 exactly pays the flat part: ₦137.50', () => expect(fee('2500', 'NGN')).toBe('137.50'));
  it('₦200,000 is capped at ₦2,000.00', () => expect(fee('200000', 'NGN')).toBe('2000.00'));
  it('₦2,500.50 rounds 37.5075 half-up to 37.51: ₦137.51', () => expect(fee('2500.50', 'NGN')).toBe('137.51'));
  it('USD 10.01 at 3.9 % is 0.390 39 → 0.39', () => expect(fee('10.01', 'USD')).toBe('0.39'));
  it('KES 1,000 at 2.9 % is 29.00', () => expect(fee('1000', 'KES')).toBe('29.00'));
});
