import type { Schema } from '../../shared/api';

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/** `account:manage` in the API's role matrix (docs/portal-api.md): admins and owners; others see no actions. */
export function canManageSettlements(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}
