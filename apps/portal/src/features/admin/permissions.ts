import { useMe } from '../auth';
import { platformRoleAllows, type PlatformPermission } from './role-matrix';

export { platformRoleAllows, type PlatformPermission, type PlatformRole } from './role-matrix';

/** The signed-in person's platform role (null for members of developer accounts) and a permission test. */
export function usePlatformAccess() {
  const me = useMe();
  const role = me.data?.platform_role ?? null;
  return { me: me.data, role, can: (permission: PlatformPermission) => platformRoleAllows(role, permission) };
}
