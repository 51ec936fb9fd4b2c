import { useEffect, useRef } from 'react';
import { ApiClientProvider, defaultApiClient } from '../shared/api-context';
import type { ApiClient } from '../shared/api-client';
import { AppShell, SideNav } from '../shared/layout';
import { PRODUCT_NAME } from '../shared/links';
import { matchRoute, navigate, useCurrentPath } from '../shared/router';
import { NotFoundPage } from './NotFoundPage';
import { appRoutes, DEFAULT_PATH, resourceLinks } from './routes';

const navItems = appRoutes.map((route) => ({ to: route.path, label: route.navLabel }));

export interface AppProps {
  /** The API client the pages use; the same-origin client by default. */
  apiClient?: ApiClient;
}

export function App({ apiClient = defaultApiClient }: AppProps) {
  const path = useCurrentPath();
  const route = matchRoute(appRoutes, path === '/' ? DEFAULT_PATH : path);
  const mainRef = useRef<HTMLElement>(null);
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    if (path === '/') navigate(DEFAULT_PATH, { replace: true });
  }, [path]);

  useEffect(() => {
    document.title = `${route?.title ?? 'Page not found'} · ${PRODUCT_NAME}`;
  }, [route]);

  // After navigating (not on the first load), move focus to the new page so screen readers
  // start reading it, as they would after a full page load.
  useEffect(() => {
    const effectivePath = path === '/' ? DEFAULT_PATH : path;
    if (previousPath.current !== null && previousPath.current !== effectivePath) mainRef.current?.focus();
    previousPath.current = effectivePath;
  }, [path]);

  return (
    <ApiClientProvider client={apiClient}>
      <AppShell mainRef={mainRef} navigation={<SideNav label="Portal" items={navItems} resources={resourceLinks} />}>
        {route ? route.element : <NotFoundPage path={path} />}
      </AppShell>
    </ApiClientProvider>
  );
}
