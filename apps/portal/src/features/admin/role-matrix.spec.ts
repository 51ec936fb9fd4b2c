import { platformRoleAllows, type PlatformPermission } from './role-matrix';

const PERMISSIONS: PlatformPermission[] = [
  'platform:developers:read',
  'platform:developers:manage',
  'platform:developers:suspend',
  'platform:fees:read',
  'platform:fees:write',
  'platform:settlements:read',
  'platform:settlements:approve',
  'platform:deposits:read',
  'platform:audit:read',
  'platform:overview:read',
];

describe('the admin console’s role matrix', () => {
  it('lets a financial secretary approve settlements but neither change fees nor read the audit log', () => {
    expect(platformRoleAllows('financial_secretary', 'platform:settlements:approve')).toBe(true);
    expect(platformRoleAllows('financial_secretary', 'platform:fees:write')).toBe(false);
    expect(platformRoleAllows('financial_secretary', 'platform:audit:read')).toBe(false);
  });

  it('allows nothing without a platform role', () => {
    for (const permission of PERMISSIONS) expect(platformRoleAllows(null, permission)).toBe(false);
  });
});
