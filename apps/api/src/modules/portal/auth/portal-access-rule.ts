import type { AccountPermission, PlatformPermission, ResolvedSession } from '@gateway/domain/identity';

// The route metadata the portal guard reads, apart from the decorators that apply the guard, so
// the guard and the decorators do not import each other.

export const PORTAL_ACCESS = 'gateway:portal-access';

/**
 * What a portal route needs. `none`: no session (login, password reset…); `pending`: a session
 * whose password step passed and which owes its TOTP code; `any`: pending or active (logout);
 * `active`: a signed-in session, optionally with an account or platform permission.
 */
export type PortalAccessRule =
  | { session: 'none' | 'pending' | 'any' }
  | { session: 'active'; permission?: AccountPermission; platform?: PlatformPermission };

/** The request's portal session and the cookie value it came from (for the CSRF token). */
export interface PortalSessionContext extends ResolvedSession {
  token: string;
  /** The id of the request the session came with (what the account's postings and events record). */
  requestId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the portal guard when a valid session cookie came with the request. */
    portalSession?: PortalSessionContext;
  }
}
