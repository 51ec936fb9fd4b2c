import { PORTAL_CSRF_COOKIE, PORTAL_SESSION_COOKIE } from '@gateway/contracts';
import type { AppConfig } from '@gateway/platform';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Cookies are scoped to the portal API; Secure whenever the gateway is reached over HTTPS. */
function baseOptions(request: FastifyRequest, config: AppConfig): CookieSerializeOptions {
  return {
    path: '/api/portal',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || config.api.publicBaseUrl.startsWith('https://') || config.portal.baseUrl.startsWith('https://'),
  };
}

/**
 * A browser-session cookie (no Expires): the server alone decides when a session ends (idle and
 * absolute expiry, logout), so the cookie needs no clock of its own.
 */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, config: AppConfig, token: string): void {
  void reply.setCookie(PORTAL_SESSION_COOKIE, token, baseOptions(request, config));
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, config: AppConfig): void {
  void reply.clearCookie(PORTAL_SESSION_COOKIE, baseOptions(request, config));
}

/** The pre-login double-submit cookie; stricter SameSite, it is only ever needed same-site. */
export function setPreSessionCsrfCookie(reply: FastifyReply, request: FastifyRequest, config: AppConfig, token: string): void {
  void reply.setCookie(PORTAL_CSRF_COOKIE, token, { ...baseOptions(request, config), sameSite: 'strict' });
}
