import type { Payment, Refund } from './api';
import { refundableMinor } from './refundable';
import { paymentEvents } from './timeline';

const payment: Payment = {
  reference: 'PAY-1',
  status: 'success',
  amount: 10000,
  currency: 'NGN',
  net_amount: 9740,
  fees: { platform: 10, provider: 250 },
  amount_refunded: 0,
  email: 'ada@example.com',
  customer_reference: 'CUS_1',
  authorization_url: null,
  callback_url: null,
  metadata: {},
  splits: [],
  authorization: { authorization_code: 'AUTH_1', reusable: true, brand: 'visa', last4: '4081', exp_month: '12', exp_year: '2030', bank: null },
  gateway_response: 'Approved',
  channel: 'card',
  charge_at: null,
  paid_at: '2026-11-26T10:05:00.000Z',
  created_at: '2026-11-26T10:00:00.000Z',
};

const refund = (reference: string, amount: number, status: Refund['status']): Refund => ({
  reference,
  payment_reference: 'PAY-1',
  amount,
  currency: 'NGN',
  reason: null,
  status,
  created_at: '2026-11-26T11:00:00.000Z',
  processed_at: status === 'pending' ? null : '2026-11-26T11:01:00.000Z',
});

describe('what is left to refund', () => {
  it('partial refund of 2,500.50 leaves 7,499.50 refundable', () => {
    expect(refundableMinor({ ...payment, amount_refunded: 2500.5 })).toBe(749950n);
  });

  it('a fully refunded payment leaves nothing (never a negative amount)', () => {
    expect(refundableMinor({ ...payment, amount_refunded: 10000 })).toBe(0n);
    expect(refundableMinor({ ...payment, amount_refunded: 10000.01 })).toBe(0n);
  });

  it('0.10 refunded of 0.30 leaves 0.20 (a float subtraction would leave 0.19999999999999998)', () => {
    expect(refundableMinor({ amount: 0.3, amount_refunded: 0.1, currency: 'USD' })).toBe(20n);
  });
});

describe('payment timeline', () => {
  it('runs initialized → paid → each refund (oldest first) and its outcome', () => {
    // The API lists refunds newest first.
    const events = paymentEvents(payment, [refund('RFD_2', 1000, 'failed'), refund('RFD_1', 2500.5, 'processed')]);
    expect(events.map((e) => e.title)).toEqual(['Initialized', 'Paid', expect.stringMatching(/^Refund of .*2,500\.50$/), 'Refund processed', expect.stringMatching(/^Refund of .*1,000\.00$/), 'Refund failed']);
    expect(events[1].detail).toContain('visa ending 4081');
  });

  it('shows a failed payment as failed, with the gateway response and no time', () => {
    const events = paymentEvents({ ...payment, status: 'failed', paid_at: null, net_amount: null, gateway_response: 'Declined' }, []);
    expect(events.slice(1)).toEqual([expect.objectContaining({ title: 'Failed', detail: 'Declined', time: null })]);
  });
});
