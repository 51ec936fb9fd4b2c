/**
 * Every scope an API key can carry (`resource:action`). An empty scope list grants full access.
 * The spec names the first group; the rest cover the capabilities it does not name.
 */
export const SCOPES = {
  'payments:read': 'GET payment endpoints (payments, bulk batches)',
  'payments:write': 'Initialize, charge, bulk and cancel scheduled payments',
  'payment_intents:read': 'GET payment intents',
  'payment_intents:write': 'Create, capture and cancel payment intents',
  'refunds:read': 'GET refunds',
  'refunds:write': 'Create refunds',
  'customers:read': 'GET customer endpoints',
  'customers:write': 'Create customers',
  'subaccounts:read': 'GET sub-accounts',
  'subaccounts:write': 'Create sub-accounts',
  'transfers:read': 'GET transfers',
  'transfers:write': 'Create single and bulk transfers',
  'wallet:read': 'Wallet balance, ledger and settlements',
  'virtual_accounts:read': 'GET virtual accounts',
  'virtual_accounts:write': 'Create virtual accounts',
  'subscriptions:read': 'GET plans and subscriptions',
  'subscriptions:write': 'Create plans and subscriptions; pause and cancel',
  'invoices:read': 'GET invoice endpoints',
  'invoices:write': 'Create, update, send, cancel and delete invoices',
  'disputes:read': 'GET disputes',
  'disputes:write': 'Submit dispute evidence',
  'webhooks:read': 'GET webhook endpoints and delivery logs',
  'webhooks:manage': 'Create, update, delete, test and retry webhooks (includes webhooks:read)',
  'analytics:read': 'Analytics summary and time series',
  'exports:read': 'List exports and download their files',
  'exports:write': 'Request exports (includes exports:read)',
  'requests:read': "A request's trace: its log entry, the ledger entries it posted, its events and their deliveries",
  'events:read': "The account's events, oldest first, and waiting for new ones (GET /events: the event feed)",
  'request_logs:read': "The account's request log, oldest first, and waiting for new entries (GET /request-logs: the log tail)",
  'sandbox:write': 'Test-mode sandbox controls',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** Scopes that grant others too: managing a resource includes reading it. */
export const SCOPE_IMPLIES: Partial<Record<Scope, readonly Scope[]>> = {
  'webhooks:manage': ['webhooks:read'],
  'exports:write': ['exports:read'],
};

/** Whether a key holding `held` may use a route needing `required` (an empty list grants everything). */
export function scopesGrant(held: readonly Scope[], required: Scope): boolean {
  return held.length === 0 || held.some((scope) => scope === required || (SCOPE_IMPLIES[scope]?.includes(required) ?? false));
}

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCOPES, value);
}
