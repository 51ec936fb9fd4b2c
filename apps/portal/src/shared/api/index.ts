export { portalApi } from './portal-client';
export { unwrap, unwrapPage, type Page } from './unwrap';
export { rememberCsrfToken, forgetCsrfToken } from './csrf-token';
export { onSessionExpired } from './session-expiry';
export type { components, paths } from './schema';

import type { components } from './schema';

/** Shorthand for a schema of the OpenAPI document: `Schema<'PortalKeyResponse'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
