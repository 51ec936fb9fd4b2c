import { minorDigits, toMinorUnits } from '../../shared/format/money';
import type { Payment } from './api';

/** What is left to refund, in minor units (exact: no float subtraction). */
export function refundableMinor(payment: Pick<Payment, 'amount' | 'amount_refunded' | 'currency'>): bigint {
  const digits = minorDigits(payment.currency);
  const left = (toMinorUnits(payment.amount, digits) ?? 0n) - (toMinorUnits(payment.amount_refunded, digits) ?? 0n);
  return left > 0n ? left : 0n;
}
