import 'reflect-metadata';
import { type AccountPermission, accountRoleAllows, ACCOUNT_ROLES, platformRoleAllows } from './roles';

describe('role matrix', () => {
  const permissions: AccountPermission[] = ['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund', 'team:manage', 'account:manage', 'ownership:transfer'];
  const granted = (role: (typeof ACCOUNT_ROLES)[number]) => permissions.filter((p) => accountRoleAllows(role, p));

  it('viewer reads only; developer adds keys, webhooks and refunds; admin all but ownership; owner everything', () => {
    expect(granted('viewer')).toEqual(['account:read']);
    expect(granted('developer')).toEqual(['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund']);
    expect(granted('admin')).toEqual(['account:read', 'keys:manage', 'webhooks:manage', 'payments:refund', 'team:manage', 'account:manage']);
    expect(granted('owner')).toEqual(permissions);
  });

  it('a financial secretary reads fees and nothing else; a platform admin does all platform work', () => {
    expect(platformRoleAllows('financial_secretary', 'platform:fees:read')).toBe(true);
    expect(platformRoleAllows('financial_secretary', 'platform:fees:write')).toBe(false);
    expect(platformRoleAllows('financial_secretary', 'platform:developers:manage')).toBe(false);
    expect(platformRoleAllows('admin', 'platform:fees:write')).toBe(true);
    expect(platformRoleAllows('admin', 'platform:developers:manage')).toBe(true);
  });
});
