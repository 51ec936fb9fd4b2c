import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../app/router';
import type { PlatformPermission } from './permissions';

/** An admin page's title and the platform permission it needs (AdminSection shows "Not permitted" without it). */
export interface AdminRouteHandle extends RouteHandle {
  permission: PlatformPermission;
}

const page = (path: string, title: string, permission: PlatformPermission, load: () => Promise<React.ComponentType>): RouteObject => ({
  path,
  handle: { title, permission } satisfies AdminRouteHandle,
  lazy: async () => ({ Component: await load() }),
});

/**
 * The admin console under /admin, for platform staff (admins and financial secretaries). This file
 * stays small: every page loads on demand with the `admin` chunk.
 */
export const ADMIN_ROUTES: RouteObject[] = [
  {
    path: '/admin',
    lazy: async () => ({ Component: (await import('./index')).AdminSection }),
    children: [
      { index: true, element: <Navigate to="/admin/overview" replace /> },
      page('overview', 'Platform overview', 'platform:overview:read', async () => (await import('./index')).OverviewPage),
      page('settlements', 'Settlement approvals', 'platform:settlements:read', async () => (await import('./index')).SettlementQueuePage),
      page('deposits', 'Unmatched deposits', 'platform:deposits:read', async () => (await import('./index')).UnmatchedDepositsPage),
      page('webhooks', 'Failing webhook endpoints', 'platform:overview:read', async () => (await import('./index')).FailingWebhooksPage),
      page('developers', 'Developers', 'platform:developers:read', async () => (await import('./index')).DevelopersPage),
      page('developers/:id', 'Developer', 'platform:developers:read', async () => (await import('./index')).DeveloperDetailPage),
      page('audit', 'Platform audit log', 'platform:audit:read', async () => (await import('./index')).AuditLogPage),
    ],
  },
];
