import type { Schema } from '../../shared/api';
import type { WebhookEvent } from './api';

/**
 * The events an endpoint can subscribe to, grouped for the form (docs/webhooks.md, "Event catalog").
 * The type comes from the OpenAPI document; the check below fails typecheck when the API adds an
 * event this list lacks.
 */
export const EVENT_GROUPS: ReadonlyArray<{ group: string; items: readonly WebhookEvent[] }> = [
  { group: 'Payments', items: ['payment.success', 'payment.failed', 'refund.completed'] },
  { group: 'Transfers and withdrawals', items: ['transfer.success', 'transfer.failed', 'withdrawal.completed', 'batch.completed'] },
  { group: 'Customers and accounts', items: ['customer.created', 'virtual_account.credited'] },
  { group: 'Subscriptions', items: ['subscription.charged', 'subscription.charge_failed', 'subscription.paused', 'subscription.cancelled'] },
  { group: 'Invoices', items: ['invoice.paid', 'invoice.partially_paid', 'invoice.overdue'] },
  { group: 'Disputes', items: ['dispute.created', 'dispute.won', 'dispute.lost'] },
  // The gateway's own: another endpoint of the account was disabled after its deliveries kept failing.
  { group: 'Webhook endpoints', items: ['webhook_endpoint.disabled'] },
];

type Listed = (typeof EVENT_GROUPS)[number]['items'][number];
type Missing = Exclude<WebhookEvent, Listed>;
export const EVENTS_ARE_COMPLETE: [Missing] extends [never] ? true : Missing = true;

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/**
 * Who may change webhooks: developers, admins and owners (`webhooks:manage` in the API's role
 * matrix, docs/portal-api.md). Viewers see everything read-only; the API refuses them too.
 */
export function canManageWebhooks(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin' || role === 'developer';
}
