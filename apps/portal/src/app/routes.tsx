import type { ReactNode } from 'react';
import { StatusPage } from '../features/status';
import { API_DOCS_URL, OPENAPI_JSON_URL } from '../shared/links';
import type { ExternalNavItem } from '../shared/layout';

export interface AppRoute {
  /** Hash path, e.g. `/status` (served as `/#/status`). */
  path: string;
  /** Document title and navigation label. */
  title: string;
  navLabel: string;
  element: ReactNode;
}

/**
 * The portal's pages, in navigation order. Each feature (dashboard, API keys, customers,
 * payments, wallet, webhooks, sandbox, settings, team) adds its route here.
 */
export const appRoutes: readonly AppRoute[] = [
  { path: '/status', title: 'API status', navLabel: 'API status', element: <StatusPage /> },
];

/** Where `/` leads. */
export const DEFAULT_PATH = '/status';

export const resourceLinks: readonly ExternalNavItem[] = [
  { href: API_DOCS_URL, label: 'API reference' },
  { href: OPENAPI_JSON_URL, label: 'OpenAPI document' },
];
