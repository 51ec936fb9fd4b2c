/**
 * Every event of the spec's Event catalog, grouped as the spec groups them, followed by the
 * gateway's own extensions (GATEWAY_EXTENSION_EVENTS): events the spec does not name, about the
 * gateway's own resources, subscribed to like any other.
 */
export const EVENT_CATALOG = {
  payments: ['payment.success', 'payment.failed'],
  refunds: ['refund.completed'],
  transfers: ['transfer.success', 'transfer.failed'],
  withdrawals: ['withdrawal.completed'],
  customers: ['customer.created'],
  virtual_accounts: ['virtual_account.credited'],
  subscriptions: ['subscription.charged', 'subscription.charge_failed', 'subscription.cancelled', 'subscription.paused'],
  invoices: ['invoice.paid', 'invoice.partially_paid', 'invoice.overdue'],
  disputes: ['dispute.created', 'dispute.won', 'dispute.lost'],
  batch: ['batch.completed'],
  // Gateway extension: an endpoint the gateway disabled after its deliveries kept failing (docs/webhooks.md).
  webhook_endpoints: ['webhook_endpoint.disabled'],
} as const;

export type EventGroup = keyof typeof EVENT_CATALOG;
export type EventName = (typeof EVENT_CATALOG)[EventGroup][number];

/** The flat list of event names, in catalog order. */
export const EVENT_NAMES: readonly EventName[] = Object.values(EVENT_CATALOG).flat();

/** The catalog's events that are the gateway's own, not the spec's. */
export const GATEWAY_EXTENSION_EVENTS: readonly EventName[] = EVENT_CATALOG.webhook_endpoints;

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}

/** Sent by `POST /webhooks/test/`; never emitted by a business operation and never subscribable. */
export const TEST_EVENT_NAME = 'webhook.test' as const;
