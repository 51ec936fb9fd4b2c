import type { Schemas } from '../types.js';

/** Every event an endpoint can subscribe to (the spec's event catalog). */
export type EventName = Schemas['WebhookResponse']['events'][number];

/**
 * The object each event carries: the object the API returns for it (a payment event carries what
 * `GET /payments/{reference}` answers, and so on), as the gateway's event catalog defines them.
 */
export interface EventDataMap {
  'payment.success': Schemas['PaymentResponse'];
  'payment.failed': Schemas['PaymentResponse'];
  'refund.completed': Schemas['RefundResponse'];
  'transfer.success': Schemas['TransferResponse'];
  'transfer.failed': Schemas['TransferResponse'];
  'withdrawal.completed': Schemas['SettlementResponse'];
  'customer.created': Schemas['CustomerResponse'];
  'virtual_account.credited': Schemas['VirtualAccountDepositResponse'];
  'subscription.charged': Schemas['SubscriptionResponse'];
  'subscription.charge_failed': Schemas['SubscriptionResponse'];
  'subscription.cancelled': Schemas['SubscriptionResponse'];
  'subscription.paused': Schemas['SubscriptionResponse'];
  'invoice.paid': Schemas['InvoiceResponse'];
  'invoice.partially_paid': Schemas['InvoiceResponse'];
  'invoice.overdue': Schemas['InvoiceResponse'];
  'dispute.created': Schemas['DisputeResponse'];
  'dispute.won': Schemas['DisputeResponse'];
  'dispute.lost': Schemas['DisputeResponse'];
  /** A bulk batch whose every item is done, without its `items`; `type` says payments or transfers. */
  'batch.completed': Omit<Schemas['PaymentBatchResponse'], 'items'> | Omit<Schemas['TransferBatchResponse'], 'items'>;
  /** A gateway extension: one of your endpoints the gateway disabled after its deliveries kept failing (never its secret). */
  'webhook_endpoint.disabled': Omit<Schemas['WebhookResponse'], 'secret'> & { webhook_id: string };
  /** Sent only by `POST /webhooks/test`, never by an operation. */
  'webhook.test': { webhook_id: string; message: string };
}

export type DeliveredEventName = keyof EventDataMap;

interface EventMembers<E extends DeliveredEventName> {
  event: E;
  /** `evt_…`: the same in every attempt and manual retry; drop an id you have already handled. */
  id: string;
  created_at: string;
  mode: 'test' | 'live';
}

/** `webhook_version: v1` (flat): the object's fields at the top level; on a name clash the event's member wins. */
export type WebhookEventV1<E extends DeliveredEventName = DeliveredEventName> = E extends DeliveredEventName ? EventMembers<E> & Omit<EventDataMap[E], keyof EventMembers<E>> : never;

/** `webhook_version: v2` (structured envelope): the object, unchanged, under `data`. */
export type WebhookEventV2<E extends DeliveredEventName = DeliveredEventName> = E extends DeliveredEventName ? EventMembers<E> & { api_version: 'v2'; data: EventDataMap[E] } : never;

/** A verified delivery: narrow on `event` for its object, and on `'api_version' in event` for the version. */
export type WebhookEvent<E extends DeliveredEventName = DeliveredEventName> = WebhookEventV1<E> | WebhookEventV2<E>;
