import type { Schema } from '../../shared/api';

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/**
 * Who may refund from the portal: developers, admins and owners (`payments:refund` in the API's
 * role matrix, docs/portal-api.md). Viewers see no refund button; the API refuses them too.
 */
export function canRefund(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin' || role === 'developer';
}
