import { API_DOCS_URL, OPENAPI_JSON_URL } from '../shared/links';

/** The side navigation, in order. Each new page adds its entry here and its route in router.tsx. */
export const PAGE_LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/payments', label: 'Payments' },
  { to: '/customers', label: 'Customers' },
  { to: '/wallet', label: 'Wallet' },
  { to: '/withdrawals', label: 'Withdrawals' },
  { to: '/keys', label: 'API keys' },
  { to: '/ip-allowlist', label: 'IP allowlist' },
  { to: '/request-logs', label: 'Request logs' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/team', label: 'Team' },
  { to: '/sandbox', label: 'Sandbox' },
  { to: '/settings', label: 'Settings' },
  { to: '/status', label: 'API status' },
] as const;

export const RESOURCE_LINKS = [
  { href: API_DOCS_URL, label: 'API reference' },
  { href: OPENAPI_JSON_URL, label: 'OpenAPI document' },
] as const;
