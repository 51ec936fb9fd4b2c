import type { Mode } from '../common';
import type { CustomerResponse } from '../customers/customer.dto';
import type { DisputeResponse } from '../disputes/dispute.dto';
import type { InvoiceResponse } from '../invoices/invoice.dto';
import type { PaymentBatchResponse, PaymentResponse } from '../payments/payment.dto';
import type { RefundResponse } from '../refunds/refund.dto';
import type { SubscriptionResponse } from '../subscriptions/subscription.dto';
import type { SettlementResponse } from '../settlements/settlement.dto';
import type { TransferResponse } from '../transfers/transfer.dto';
import type { TransferBatchResponse } from '../transfers/transfer-batch.dto';
import type { VirtualAccountDepositResponse } from '../virtual-accounts/virtual-account.dto';
import type { WebhookResponse } from '../webhooks/webhook.dto';
import type { EventName, TEST_EVENT_NAME } from './catalog';

/*
 * The object each event carries is the object the API returns, built by the same mapper: a
 * payment event carries what `GET /payments/{reference}` answers, and so on. Defining the event
 * data AS the response type (not a look-alike) keeps the two from drifting apart, and
 * `EventsService.emit` is typed by event name so a mismatch does not compile. Amounts are JSON
 * numbers in the major unit, timestamps ISO-8601 UTC, public references only, never provider ids.
 */

/**
 * `payment.success` (status `success`) and `payment.failed` (status `failed`): the payment as
 * `GET /payments/{reference}` returns it, rendered by `toPaymentResponse` when the outcome commits.
 */
export type PaymentEventData = PaymentResponse;

/** `refund.completed`: the refund as `GET /refunds/{reference}` returns it, status `processed`. */
export type RefundEventData = RefundResponse;

/**
 * `transfer.success` (status `success`) and `transfer.failed` (status `failed`, or `reversed` when
 * the bank sent the money back after a success): the transfer as `GET /transfers/{reference}` returns it.
 */
export type TransferEventData = TransferResponse;

/** `withdrawal.completed`: the settlement as `GET /wallet/settlements/{reference}` returns it, status `completed`. */
export type WithdrawalEventData = SettlementResponse;

/**
 * `dispute.created` (status `open`), `dispute.won` (status `won`) and `dispute.lost` (status
 * `lost`): the dispute as `GET /disputes/{reference}` returns it when the change commits.
 */
export type DisputeEventData = DisputeResponse;

/**
 * `virtual_account.credited`: a bank transfer into a virtual account, once the wallet was credited,
 * as `GET /virtual-accounts/{id}/deposits` lists it.
 */
export type VirtualAccountCreditedEventData = VirtualAccountDepositResponse;

/**
 * `invoice.partially_paid` (a payment that leaves some of the total due: status `partially_paid`,
 * or `overdue` when the invoice was overdue), `invoice.paid` (status `paid`, once) and
 * `invoice.overdue` (status `overdue`, once): the invoice as `GET /invoices/{reference}` returns
 * it when the change commits (docs/invoices.md).
 */
export type InvoiceEventData = InvoiceResponse;

/**
 * `subscription.charged` (a period paid: `latest_charge.status` `success`), `subscription.charge_failed`
 * (a charge declined: `latest_charge.status` `failed`, usually status `past_due`), `subscription.paused`
 * (status `paused`) and `subscription.cancelled` (status `cancelled`, with `cancellation_reason`):
 * the subscription as `GET /subscriptions/{id}` returns it when the change commits.
 */
export type SubscriptionEventData = SubscriptionResponse;

/** `customer.created`: the customer as `GET /customers/{reference}` returns it. */
export type CustomerEventData = CustomerResponse;

/**
 * `batch.completed`: a bulk batch whose every item is done, as its endpoint returns it, status
 * `completed`, without its `items` (read them from that endpoint). `type` says which: `payments`
 * (`GET /payments/bulk/{batch_reference}`) or `transfers` (`GET /transfers/bulk/{batch_reference}`).
 */
export type BatchEventData = Omit<PaymentBatchResponse, 'items'> | Omit<TransferBatchResponse, 'items'>;

/**
 * `webhook_endpoint.disabled` (a gateway extension): the endpoint the gateway disabled, as
 * `GET /webhooks/{id}` returns it (`status: "disabled"`, `disabled_at`, `disabled_reason`, its
 * `health`), never its secret, plus `webhook_id`: its id again, because in a v1 (flat) body the
 * event's own `id`, `mode` and `created_at` win over the endpoint's. Delivered to the account's
 * other enabled endpoints of that mode that subscribe to it, never to the disabled one.
 */
export type WebhookEndpointDisabledEventData = Omit<WebhookResponse, 'secret'> & { webhook_id: string };

/** `webhook.test`: sent only by `POST /webhooks/test/`; never emitted by an operation, never subscribable. */
export interface TestEventData {
  /** The endpoint the test was sent to (`whk_…`). */
  webhook_id: string;
  message: string;
}

/**
 * The object type carried by each subscribable event. `never` marks an event of the catalog that
 * no capability emits yet: subscribing works, nothing is delivered, and `emit` refuses it at
 * compile time until the capability that emits it sets its object type here (its API response).
 */
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
  'webhook_endpoint.disabled': WebhookEndpointDisabledEventData;
}

/** Every event that can reach a receiver: the catalog plus `webhook.test`. */
export type DeliveredEventName = EventName | typeof TEST_EVENT_NAME;

/** The object of every event that can reach a receiver. */
export type DeliveredEventDataMap = EventDataMap & { 'webhook.test': TestEventData };

export type WebhookVersion = 'v1' | 'v2';
export const WEBHOOK_VERSIONS: readonly WebhookVersion[] = ['v1', 'v2'];

/** The event's own members, in both versions. */
interface EventMembers<E extends DeliveredEventName> {
  event: E;
  /** `evt_…`, the same in every attempt and manual retry. */
  id: string;
  /** When the event happened. */
  created_at: string;
  mode: Mode;
}

/**
 * v1 (flat): the object's fields at the top level with the event's members; on a name clash the
 * event's member wins (so the object's own `created_at` is not in a v1 body).
 */
export type WebhookPayloadV1<E extends DeliveredEventName = DeliveredEventName> = EventMembers<E> & Omit<DeliveredEventDataMap[E], keyof EventMembers<E>>;

/** v2 (structured envelope): the object, unchanged, under `data`. */
export interface WebhookPayloadV2<E extends DeliveredEventName = DeliveredEventName> extends EventMembers<E> {
  api_version: 'v2';
  data: DeliveredEventDataMap[E];
}

export type WebhookPayload<E extends DeliveredEventName = DeliveredEventName> = WebhookPayloadV1<E> | WebhookPayloadV2<E>;
