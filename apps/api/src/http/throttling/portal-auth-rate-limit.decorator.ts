import { SetMetadata } from '@nestjs/common';

export const PORTAL_AUTH_RATE_LIMIT = 'gateway:portal-auth-rate-limit';

/**
 * Puts a route under the per-IP, per-minute limit of the portal's credential routes
 * (RATE_LIMIT_PORTAL_AUTH_PER_MINUTE, one count shared by all of them): sign-in and its TOTP
 * step, password reset, accepting an invitation, confirming TOTP. Each attempt there is worth
 * one guess (and an argon2 hash), so an address gets a handful a minute, not hundreds a second.
 */
export function PortalAuthRateLimit(): MethodDecorator {
  return SetMetadata(PORTAL_AUTH_RATE_LIMIT, true);
}
