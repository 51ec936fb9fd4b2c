import { Amount } from '@gateway/platform';
import { LedgerUnbalancedError } from './ledger.errors';
import type { Posting } from './ledger.types';
import { paymentSuccessLines, refundLines, reserveLines, settleReservedLines } from './posting-lines';
import { checkPosting, onlyAddsToWallet, planSlotChanges, type SlotBalance, walletDeltas } from './posting-plan';

const a = (value: string) => Amount.parse(value);
const posting = (lines: Posting['lines']): Posting => ({ currency: 'NGN', sourceType: 'payment', sourceId: 'p1', kind: 'success', reference: 'REF', lines });
const slot = (n: number, available: string, reserved = '0'): SlotBalance => ({ slot: n, available: a(available), pending: a('0'), reserved: a(reserved) });

describe('posting lines', () => {
  it('a 10,000.00 payment with 10.00 platform fee, 150.00 provider fee and a 2,500.00 split nets 7,340.00 into available', () => {
    const lines = paymentSuccessLines({ amount: a('10000'), platformFee: a('10'), providerFee: a('150'), shares: [{ subaccountCode: 'ACCT_1', amount: a('2500') }] });
    expect(() => checkPosting(posting(lines))).not.toThrow();
    expect(walletDeltas(lines).available).toEqual(a('7340'));
    expect(lines.filter((l) => l.account !== 'wallet').map((l) => [l.account, l.amount.toString()])).toEqual([
      ['provider_clearing', '-10000.00'],
      ['platform_fees', '10.00'],
      ['provider_fees', '150.00'],
      ['subaccount:ACCT_1', '2500.00'],
    ]);
    expect(onlyAddsToWallet(walletDeltas(lines))).toBe(true);
  });

  it('a payment with a waived platform fee writes no zero fee line', () => {
    const lines = paymentSuccessLines({ amount: a('500'), platformFee: a('0'), providerFee: a('7.50') });
    expect(lines.map((l) => l.account)).toEqual(['provider_clearing', 'wallet', 'wallet', 'provider_fees']);
  });

  it('a refund, a reserve and a settlement take money out of a bucket, so they need the lock', () => {
    expect(onlyAddsToWallet(walletDeltas(refundLines(a('1'))))).toBe(false);
    expect(walletDeltas(reserveLines(a('5')))).toEqual({ available: a('-5'), pending: a('0'), reserved: a('5') });
    expect(walletDeltas(settleReservedLines(a('5'))).reserved).toEqual(a('-5'));
  });
});

describe('checkPosting', () => {
  it('refuses lines summing to 0.01 instead of zero', () => {
    const lines = [...refundLines(a('10'))];
    lines[1] = { ...lines[1], amount: a('10.01') };
    expect(() => checkPosting(posting(lines))).toThrow(LedgerUnbalancedError);
  });

  it('refuses a zero line, a single line and a bucket on a system account', () => {
    expect(() => checkPosting(posting([{ account: 'wallet', entryType: 'credit', amount: a('0'), description: 'x' }, { account: 'provider_clearing', entryType: 'credit', amount: a('0'), description: 'x' }]))).toThrow(/zero/);
    expect(() => checkPosting(posting([{ account: 'wallet', entryType: 'credit', amount: a('0'), description: 'x' }]))).toThrow(/two lines/);
    expect(() =>
      checkPosting(posting([{ account: 'wallet', entryType: 'credit', amount: a('1'), description: 'x' }, { account: 'provider_clearing', bucket: 'available', entryType: 'credit', amount: a('-1'), description: 'x' }])),
    ).toThrow(/bucket/);
  });
});

describe('planSlotChanges', () => {
  it('a 250.00 refund over slots holding 100, 200 and 50 takes 200 then 50 from the fullest, none below zero', () => {
    const plan = planSlotChanges([slot(0, '100'), slot(1, '200'), slot(2, '50')], walletDeltas(refundLines(a('250'))));
    expect(plan).toEqual({ changed: [slot(0, '50'), slot(1, '0')] });
  });

  it('a refund of 350.01 against 350.00 in total reports the available shortfall', () => {
    expect(planSlotChanges([slot(0, '100'), slot(1, '200'), slot(2, '50')], walletDeltas(refundLines(a('350.01'))))).toEqual({ shortfall: 'available' });
  });

  it('a reserve of 120.00 moves it from available to reserved', () => {
    const plan = planSlotChanges([slot(0, '100'), slot(1, '30')], walletDeltas(reserveLines(a('120'))));
    expect(plan).toEqual({ changed: [slot(0, '0', '120'), slot(1, '10')] });
  });
});
