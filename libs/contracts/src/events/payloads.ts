import type { Mode } from '../common';
import type { EventName } from './catalog';

/**
 * The object each event carries, as the API returns it (amounts are JSON numbers in the major
 * unit, timestamps ISO-8601, public references only — never provider ids). Members marked
 * optional appear when the capability that emits the event provides them; unknown extra members
 * may be added over time, so receivers must ignore members they do not know.
 */
export interface PaymentEventData {
  reference: string;
  status: 'success' | 'failed';
  amount: number;
  currency: string;
  customer_email?: string;
  customer_reference?: string;
  channel?: string;
  fee?: number;
  net_amount?: number;
  amount_refunded?: number;
  paid_at?: string | null;
  failure_reason?: string | null;
  metadata?: Record<string, unknown>;
  created_at?: string;
  [extra: string]: unknown;
}

export interface RefundEventData {
  reference: string;
  payment_reference: string;
  status: 'processed';
  amount: number;
  currency: string;
  reason?: string | null;
  created_at?: string;
  [extra: string]: unknown;
}

export interface TransferEventData {
  reference: string;
  status: 'success' | 'failed';
  amount: number;
  currency: string;
  recipient?: Record<string, unknown>;
  failure_reason?: string | null;
  created_at?: string;
  [extra: string]: unknown;
}

export interface WithdrawalEventData {
  reference: string;
  status: 'completed';
  amount: number;
  currency: string;
  created_at?: string;
  [extra: string]: unknown;
}

export interface CustomerEventData {
  reference: string;
  email: string;
  name: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  [extra: string]: unknown;
}

export interface VirtualAccountCreditedEventData {
  reference: string;
  customer_reference: string;
  amount: number;
  currency: string;
  account_number_last4?: string;
  created_at?: string;
  [extra: string]: unknown;
}

export interface SubscriptionEventData {
  reference: string;
  status: string;
  plan_reference?: string;
  customer_reference?: string;
  amount?: number;
  currency?: string;
  payment_reference?: string | null;
  failure_reason?: string | null;
  [extra: string]: unknown;
}

export interface InvoiceEventData {
  reference: string;
  status: 'paid' | 'partially_paid' | 'overdue';
  amount: number;
  amount_paid?: number;
  currency: string;
  customer_reference?: string;
  due_date?: string;
  [extra: string]: unknown;
}

export interface DisputeEventData {
  reference: string;
  status: string;
  payment_reference: string;
  amount: number;
  currency: string;
  reason?: string | null;
  evidence_due_by?: string | null;
  [extra: string]: unknown;
}

export interface BatchEventData {
  reference: string;
  status: 'completed';
  total: number;
  succeeded: number;
  failed: number;
  [extra: string]: unknown;
}

/** The object type carried by each event. */
export interface EventDataMap {
  'payment.success': PaymentEventData;
  'payment.failed': PaymentEventData;
  'refund.completed': RefundEventData;
  'transfer.success': TransferEventData;
  'transfer.failed': TransferEventData;
  'withdrawal.completed': WithdrawalEventData;
  'customer.created': CustomerEventData;
  'virtual_account.credited': VirtualAccountCreditedEventData;
  'subscription.charged': SubscriptionEventData;
  'subscription.charge_failed': SubscriptionEventData;
  'subscription.cancelled': SubscriptionEventData;
  'subscription.paused': SubscriptionEventData;
  'invoice.paid': InvoiceEventData;
  'invoice.partially_paid': InvoiceEventData;
  'invoice.overdue': InvoiceEventData;
  'dispute.created': DisputeEventData;
  'dispute.won': DisputeEventData;
  'dispute.lost': DisputeEventData;
  'batch.completed': BatchEventData;
}

export type WebhookVersion = 'v1' | 'v2';
export const WEBHOOK_VERSIONS: readonly WebhookVersion[] = ['v1', 'v2'];

/** v1 (flat): the event's members, then the object's own fields at the top level. */
export type WebhookPayloadV1<E extends EventName = EventName> = {
  event: E;
  id: string;
  created_at: string;
  mode: Mode;
} & EventDataMap[E];

/** v2 (structured envelope): the object under `data`. */
export interface WebhookPayloadV2<E extends EventName = EventName> {
  id: string;
  event: E;
  api_version: 'v2';
  created_at: string;
  mode: Mode;
  data: EventDataMap[E];
}

export type WebhookPayload<E extends EventName = EventName> = WebhookPayloadV1<E> | WebhookPayloadV2<E>;
