import type { PlatformPermission } from '../features/admin/role-matrix';
import { API_DOCS_URL, OPENAPI_JSON_URL } from '../shared/links';

/** The side navigation, in order. Each new page adds its entry here and its route in router.tsx. */
export const PAGE_LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/payments', label: 'Payments' },
  { to: '/customers', label: 'Customers' },
  { to: '/wallet', label: 'Wallet' },
  { to: '/withdrawals', label: 'Withdrawals' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/reports', label: 'Reports' },
  { to: '/keys', label: 'API keys' },
  { to: '/ip-allowlist', label: 'IP allowlist' },
  { to: '/request-logs', label: 'Request logs' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/team', label: 'Team' },
  { to: '/audit', label: 'Audit log' },
  { to: '/sandbox', label: 'Sandbox' },
  { to: '/settings', label: 'Settings' },
  { to: '/status', label: 'API status' },
] as const;

/** The admin console's section, for platform staff: each link only for the roles with its permission. */
export const ADMIN_LINKS: ReadonlyArray<{ to: string; label: string; permission: PlatformPermission }> = [
  { to: '/admin/overview', label: 'Overview', permission: 'platform:overview:read' },
  { to: '/admin/settlements', label: 'Settlement approvals', permission: 'platform:settlements:read' },
  { to: '/admin/deposits', label: 'Unmatched deposits', permission: 'platform:deposits:read' },
  { to: '/admin/webhooks', label: 'Failing webhooks', permission: 'platform:overview:read' },
  { to: '/admin/developers', label: 'Developers', permission: 'platform:developers:read' },
  { to: '/admin/audit', label: 'Platform audit log', permission: 'platform:audit:read' },
];

/** Pages that need no developer account: all that staff without one see of PAGE_LINKS. */
export const ACCOUNTLESS_PATHS: readonly string[] = ['/status'];

export const RESOURCE_LINKS = [
  { href: API_DOCS_URL, label: 'API reference' },
  { href: OPENAPI_JSON_URL, label: 'OpenAPI document' },
] as const;
