import type { KeyScope } from './api';

/**
 * The scopes a key can carry, for the create form. The type comes from the OpenAPI document; the
 * check below makes typecheck fail when the API adds a scope this list lacks.
 */
export const KEY_SCOPES = [
  'payments:read',
  'payments:write',
  'payment_intents:read',
  'payment_intents:write',
  'refunds:read',
  'refunds:write',
  'customers:read',
  'customers:write',
  'subaccounts:read',
  'subaccounts:write',
  'transfers:read',
  'transfers:write',
  'wallet:read',
  'virtual_accounts:read',
  'virtual_accounts:write',
  'subscriptions:read',
  'subscriptions:write',
  'invoices:read',
  'invoices:write',
  'disputes:read',
  'disputes:write',
  'webhooks:read',
  'webhooks:manage',
  'analytics:read',
  'exports:read',
  'exports:write',
  'requests:read',
  'events:read',
  'request_logs:read',
  'sandbox:write',
] as const satisfies readonly KeyScope[];

type Missing = Exclude<KeyScope, (typeof KEY_SCOPES)[number]>;
export const SCOPES_ARE_COMPLETE: [Missing] extends [never] ? true : Missing = true;
