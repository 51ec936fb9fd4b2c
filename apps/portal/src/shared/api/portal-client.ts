import createClient, { type Middleware } from 'openapi-fetch';
import { csrfToken, forgetCsrfToken } from './csrf-token';
import type { paths } from './schema';
import { announceSessionExpired } from './session-expiry';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Where a 401 means "wrong credentials or code", not "session over". */
const SIGN_IN_PATHS = ['/api/portal/auth/login', '/api/portal/auth/login/totp'];

/** Every state-changing request carries the CSRF token (docs/portal-api.md, "CSRF"). */
export const csrfMiddleware: Middleware = {
  async onRequest({ request }) {
    if (SAFE_METHODS.has(request.method)) return undefined;
    request.headers.set('X-CSRF-Token', await csrfToken());
    return request;
  },
};

export const sessionExpiryMiddleware: Middleware = {
  async onResponse({ request, response }) {
    if (response.status !== 401) return undefined;
    if (SIGN_IN_PATHS.includes(new URL(request.url).pathname)) return undefined;
    // A wrong step-up code (TOTP confirmation, live mode, live keys) is 401 `totp_invalid`: the
    // session is fine, the form shows the error.
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: unknown } | null;
    if (body?.code === 'totp_invalid') return undefined;
    forgetCsrfToken();
    announceSessionExpired();
    return undefined;
  },
};

/**
 * The portal's typed client: paths, bodies and answers come from the API's OpenAPI document
 * (schema.d.ts, `npm run portal:api-types`). Same origin, so the session cookie (HttpOnly, never
 * visible to scripts) travels by itself; `credentials: 'include'` keeps it so behind any proxy.
 */
export const portalApi = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '', credentials: 'include' });
portalApi.use(csrfMiddleware, sessionExpiryMiddleware);

export type { paths };
