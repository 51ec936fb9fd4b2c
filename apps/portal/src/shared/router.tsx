import { useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode } from 'react';

/**
 * A tiny hash router (no router package is installed): the path lives after `#`, e.g.
 * `/#/status`, so any static file server — `vite preview`, the API, a CDN — can serve the
 * portal without rewrite rules, and the API's own paths (`/api`, `/health`, `/ready`) never clash
 * with portal routes.
 */

/** `#/payments/pay_1?x=1` → `/payments/pay_1`; empty, `#` and `#/` → `/`; trailing slashes dropped. */
export function pathFromHash(hash: string): string {
  const raw = hash.replace(/^#/, '').split(/[?#]/)[0] ?? '';
  const path = `/${raw.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

export function hrefFor(path: string): string {
  return `#${path.startsWith('/') ? path : `/${path}`}`;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

function currentHash(): string {
  return window.location.hash;
}

/** The current portal path; re-renders on every hash change. */
export function useCurrentPath(): string {
  return pathFromHash(useSyncExternalStore(subscribe, currentHash, () => ''));
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) {
    window.location.replace(hrefFor(path));
  } else {
    window.location.hash = hrefFor(path);
  }
}

export interface RouteDefinition {
  path: string;
}

/** The route whose path equals `path`, or one of its ancestors (`/payments` matches `/payments/pay_1`). */
export function matchRoute<R extends RouteDefinition>(routes: readonly R[], path: string): R | undefined {
  const exact = routes.find((route) => route.path === path);
  if (exact) return exact;
  return routes
    .filter((route) => route.path !== '/' && path.startsWith(`${route.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

export function isActivePath(currentPath: string, linkPath: string): boolean {
  return currentPath === linkPath || (linkPath !== '/' && currentPath.startsWith(`${linkPath}/`));
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  children: ReactNode;
}

/** A link to a portal route; marks itself `aria-current="page"` when its route is shown. */
export function Link({ to, children, ...rest }: LinkProps) {
  const current = useCurrentPath();
  return (
    <a href={hrefFor(to)} aria-current={isActivePath(current, to) ? 'page' : undefined} {...rest}>
      {children}
    </a>
  );
}
