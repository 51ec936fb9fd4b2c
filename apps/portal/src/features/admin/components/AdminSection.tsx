import { Outlet, useMatches } from 'react-router';
import type { AdminRouteHandle } from '../routes';
import { usePlatformAccess } from '../permissions';
import { NotPermitted } from './NotPermitted';

/**
 * The admin console's routes: platform staff only, and each page only for the roles its handle's
 * permission allows. RequireSession above has loaded the person already.
 */
export function AdminSection() {
  const { role, can } = usePlatformAccess();
  const matches = useMatches();
  const permission = matches.map((match) => (match.handle as AdminRouteHandle | undefined)?.permission).findLast(Boolean);
  if (!role) return <NotPermitted staff={false} />;
  if (permission && !can(permission)) return <NotPermitted staff />;
  return <Outlet />;
}
