import { formatMoney } from '../../shared/format/money';
import type { Payment, Refund } from './api';

export interface TimelineEvent {
  key: string;
  title: string;
  time: string | null;
  detail?: string;
  color: string;
}

/** What happened to the payment, oldest first: initialized, scheduled, paid (or not), then each refund. */
export function paymentEvents(payment: Payment, refunds: Refund[]): TimelineEvent[] {
  const money = (amount: number) => formatMoney(amount, payment.currency);
  const events: TimelineEvent[] = [{ key: 'initialized', title: 'Initialized', time: payment.created_at, detail: `${money(payment.amount)} for ${payment.email}`, color: 'blue' }];
  if (payment.charge_at) events.push({ key: 'scheduled', title: 'Scheduled', time: payment.charge_at, detail: 'Charge of a saved card', color: 'cyan' });
  if (payment.paid_at) {
    const card = payment.authorization?.last4 ? ` · ${payment.authorization.brand ?? 'card'} ending ${payment.authorization.last4}` : '';
    const net = payment.net_amount === null ? '' : ` · net ${money(payment.net_amount)}`;
    events.push({ key: 'paid', title: 'Paid', time: payment.paid_at, detail: `${payment.channel ?? 'Paid'}${card}${net}`, color: 'green' });
  } else if (payment.status === 'failed' || payment.status === 'abandoned' || payment.status === 'cancelled') {
    const title = { failed: 'Failed', abandoned: 'Abandoned', cancelled: 'Cancelled' }[payment.status];
    events.push({ key: 'ended', title, time: null, detail: payment.gateway_response ?? undefined, color: payment.status === 'failed' ? 'red' : 'gray' });
  }
  // The API lists refunds newest first.
  for (const refund of [...refunds].reverse()) {
    const reason = refund.reason ? ` · “${refund.reason}”` : '';
    events.push({ key: `${refund.reference}-requested`, title: `Refund of ${money(refund.amount)}`, time: refund.created_at, detail: `${refund.reference} · ${refund.status}${reason}`, color: 'orange' });
    if (refund.status === 'processed') events.push({ key: `${refund.reference}-processed`, title: 'Refund processed', time: refund.processed_at, detail: refund.reference, color: 'green' });
    if (refund.status === 'failed') events.push({ key: `${refund.reference}-failed`, title: 'Refund failed', time: refund.processed_at, detail: `${refund.reference} · the amount went back to the wallet`, color: 'red' });
  }
  return events;
}

