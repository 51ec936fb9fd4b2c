/*
 * Who may do what in the portal. Account roles apply inside one developer account; platform
 * roles belong to the operator's staff and apply across accounts (admin pages only). The role
 * names themselves are wire values, so they live in the contracts.
 */
import { ACCOUNT_ROLES, type AccountRole, PLATFORM_ROLES, type PlatformRole } from '@gateway/contracts';

export { ACCOUNT_ROLES, type AccountRole, PLATFORM_ROLES, type PlatformRole };

export type AccountPermission =
  /** See the account: keys (hints only), logs, team, settings. */
  | 'account:read'
  /** Issue, rotate, scope and revoke keys; manage the IP allowlist. */
  | 'keys:manage'
  | 'webhooks:manage'
  /** Refund payments from the portal (a developer can already do it with a key it issues). */
  | 'payments:refund'
  /** Invite, re-role and remove members (owners only for anything touching an owner). */
  | 'team:manage'
  /** Account settings such as the settlement bank account and withdrawals. */
  | 'account:manage'
  /** Make someone an owner, or change or remove an owner. */
  | 'ownership:transfer'
  /** The account's own audit log (owners only). */
  | 'audit:read';

export type PlatformPermission =
  | 'platform:developers:manage'
  | 'platform:fees:read'
  | 'platform:fees:write'
  /** See every account's settlements (the approval queue). */
  | 'platform:settlements:read'
  /** Approve or reject settlements. */
  | 'platform:settlements:approve'
  /** See bank transfers into dedicated accounts that matched no virtual account. */
  | 'platform:deposits:read'
  /** Search and read developer accounts. */
  | 'platform:developers:read'
  /** Suspend and reactivate developer accounts. */
  | 'platform:developers:suspend'
  /** The platform-wide audit log. */
  | 'platform:audit:read'
  /** Platform overview and analytics across accounts; failing webhook endpoints. */
  | 'platform:overview:read';

const ACCOUNT_MATRIX: Record<AccountRole, readonly AccountPermission[]> = {
  viewer: ['account:read'],
  developer: ['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund'],
  admin: ['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund', 'team:manage', 'account:manage'],
  owner: ['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund', 'team:manage', 'account:manage', 'ownership:transfer', 'audit:read'],
};

const PLATFORM_MATRIX: Record<PlatformRole, readonly PlatformPermission[]> = {
  admin: [
    'platform:developers:manage',
    'platform:developers:read',
    'platform:developers:suspend',
    'platform:fees:read',
    'platform:fees:write',
    'platform:settlements:read',
    'platform:settlements:approve',
    'platform:deposits:read',
    'platform:audit:read',
    'platform:overview:read',
  ],
  // Approves settlements and may read fees, never change them.
  financial_secretary: ['platform:developers:read', 'platform:fees:read', 'platform:settlements:read', 'platform:settlements:approve', 'platform:deposits:read', 'platform:overview:read'],
};

export function accountRoleAllows(role: AccountRole, permission: AccountPermission): boolean {
  return ACCOUNT_MATRIX[role].includes(permission);
}

export function platformRoleAllows(role: PlatformRole, permission: PlatformPermission): boolean {
  return PLATFORM_MATRIX[role].includes(permission);
}
