import type { Schema } from '../../shared/api';

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/**
 * Who may use the sandbox controls: developers, admins and owners (`keys:manage` in the API's role
 * matrix: whoever may issue a test key could do the same with it). Viewers only look.
 */
export function canUseSandbox(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin' || role === 'developer';
}
