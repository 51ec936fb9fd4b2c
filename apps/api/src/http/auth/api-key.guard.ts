import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEY_PATTERN } from '@gateway/contracts';
import { KeyAuthenticator } from '@gateway/domain/api-keys';
import { DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { routeAccess } from './route-access';

/**
 * First guard of the chain, global and default-deny: a route is reachable only if it declared
 * `@Public()` or `@Authenticated({scope})`. Every way a key can be wrong — missing, malformed,
 * unknown, revoked, expired, or publishable on a secret-key route — gets the same 401 body.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = routeAccess(this.reflector, context);
    if (access?.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!access) throw unauthenticated();

    const presented = bearerToken(request.headers.authorization);
    if (!presented) throw unauthenticated();
    const key = await this.keys.lookup(presented);
    if (!key || !access.keyKinds.includes(key.kind)) throw unauthenticated();

    // Suspension is announced like verification (notifyAccessChanged), so cached keys learn it at once.
    if (key.accountSuspended) {
      throw new DomainError('account_suspended', 'This account is suspended: its API keys are refused until the platform operator reactivates it.');
    }
    if (key.mode === 'live' && !key.identityVerified) {
      throw new DomainError('live_mode_not_enabled', 'Live mode is enabled once identity verification is complete.');
    }
    if (key.mode === 'test' && !key.emailVerified) {
      throw new DomainError('email_not_verified', 'Verify your e-mail address to use test mode.');
    }
    request.principal = {
      developerId: key.developerId,
      mode: key.mode,
      keyId: key.keyId,
      kind: key.kind,
      scopes: key.scopes,
      allowlist: key.allowlist,
    };
    this.keys.recordUse(key.keyId, request.clientIp ?? request.ip);
    return true;
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer ([^\s]+)$/);
  return match && API_KEY_PATTERN.test(match[1]) ? match[1] : null;
}

function unauthenticated(): DomainError {
  return new DomainError('authentication_failed', 'A valid API key is required: Authorization: Bearer sk_…');
}
