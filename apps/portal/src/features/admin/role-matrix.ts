// The schema itself (types only), not the API client: the real-API browser tests compile this with the server's settings.
import type { components } from '../../shared/api/schema';

export type PlatformRole = NonNullable<components['schemas']['MeResponse']['platform_role']>;

export type PlatformPermission =
  | 'platform:developers:read'
  | 'platform:developers:manage'
  | 'platform:developers:suspend'
  | 'platform:fees:read'
  | 'platform:fees:write'
  | 'platform:settlements:read'
  | 'platform:settlements:approve'
  | 'platform:deposits:read'
  | 'platform:audit:read'
  | 'platform:overview:read';

/**
 * The API's platform role matrix (libs/domain/identity/src/roles.ts), so the console shows only what
 * a role may use. The API checks every route itself: this only hides what it would refuse.
 */
const MATRIX: Record<PlatformRole, readonly PlatformPermission[]> = {
  admin: [
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
  ],
  financial_secretary: ['platform:developers:read', 'platform:fees:read', 'platform:settlements:read', 'platform:settlements:approve', 'platform:deposits:read', 'platform:overview:read'],
};

export function platformRoleAllows(role: PlatformRole | null | undefined, permission: PlatformPermission): boolean {
  return role ? MATRIX[role].includes(permission) : false;
}
