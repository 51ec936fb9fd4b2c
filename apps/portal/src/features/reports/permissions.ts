import type { Schema } from '../../shared/api';

type Role = NonNullable<Schema<'MeResponse'>['account']>['role'];

/**
 * Who may request an export: the portal's export routes need `account:read` (docs/portal-api.md),
 * which every role of an account has, viewers included — an export shows what the pages show.
 */
export function canRequestExports(role: Role | undefined): boolean {
  return role !== undefined;
}
