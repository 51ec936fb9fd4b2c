import type { Schema } from '../../shared/api';

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/** `audit:read` in the API's role matrix (docs/portal-api.md): owners only. */
export function canReadAudit(role: Role | undefined): boolean {
  return role === 'owner';
}
