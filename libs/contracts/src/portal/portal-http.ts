/**
 * How the portal talks to `/api/portal/…`: a session cookie, a CSRF token echoed in a header on
 * every state-changing request, and a TOTP code in a header for step-up actions.
 */
export const PORTAL_SESSION_COOKIE = 'gw_session';
/** Pre-login double-submit cookie (see GET /api/portal/auth/csrf). */
export const PORTAL_CSRF_COOKIE = 'gw_csrf';
export const PORTAL_CSRF_HEADER = 'x-csrf-token';
export const PORTAL_TOTP_HEADER = 'x-totp-code';
