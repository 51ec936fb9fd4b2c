import { Amount } from '@gateway/platform';
import { breakDownPayment } from './payment-breakdown';

const a = (v: string) => Amount.parse(v);
const text = (b: ReturnType<typeof breakDownPayment>) => ({
  platformFee: b.platformFee.toString(),
  providerFee: b.providerFee.toString(),
  net: b.net.toString(),
  shares: b.shares.map((s) => `${s.subaccount}=${s.amount.toString()}`),
  walletKeeps: b.walletKeeps.toString(),
});

describe('breakDownPayment', () => {
  it('10,000.00 NGN with the 10 NGN platform fee and a 250 NGN provider fee nets 9,740.00', () => {
    expect(text(breakDownPayment({ amount: a('10000'), platformFee: a('10'), providerFee: a('250'), splits: [] }))).toEqual({
      platformFee: '10.00',
      providerFee: '250.00',
      net: '9740.00',
      shares: [],
      walletKeeps: '9740.00',
    });
  });

  it('a zero platform fee override leaves only the provider fee', () => {
    expect(breakDownPayment({ amount: a('100.10'), platformFee: a('0'), providerFee: a('1.50'), splits: [] }).net.toString()).toBe('98.60');
  });

  it('99,999,999.99 keeps every cent', () => {
    const b = breakDownPayment({ amount: a('99999999.99'), platformFee: a('10'), providerFee: a('2000'), splits: [] });
    expect(b.net.toString()).toBe('99997989.99');
  });

  it('a 0.3333 share of 100.10 is 33.36, rounded down; the crumbs stay with the developer', () => {
    const b = breakDownPayment({ amount: a('100.10'), platformFee: a('10'), providerFee: a('1.50'), splits: [{ subaccount: 'ACCT_a', share: '0.3333' }] });
    expect(text(b)).toEqual({ platformFee: '10.00', providerFee: '1.50', net: '88.60', shares: ['ACCT_a=33.36'], walletKeeps: '55.24' });
  });

  it('shares summing to 1.0 give up the fees, last share first, so the wallet never goes negative', () => {
    const b = breakDownPayment({
      amount: a('1000'),
      platformFee: a('10'),
      providerFee: a('15'),
      splits: [
        { subaccount: 'ACCT_a', share: '0.5' },
        { subaccount: 'ACCT_b', share: '0.5' },
      ],
    });
    expect(text(b)).toEqual({ platformFee: '10.00', providerFee: '15.00', net: '975.00', shares: ['ACCT_a=500.00', 'ACCT_b=475.00'], walletKeeps: '0.00' });
  });

  it('a platform fee larger than what the provider leaves is capped, so net is never negative', () => {
    const b = breakDownPayment({ amount: a('100'), platformFee: a('500'), providerFee: a('1.50'), splits: [] });
    expect(text(b)).toMatchObject({ platformFee: '98.50', net: '0.00', walletKeeps: '0.00' });
  });
});
