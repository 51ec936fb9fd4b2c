import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ipMatchesAny } from '@gateway/domain/api-keys';
import { DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';

/** Second guard: the developer's (and key's) IP allowlist. An empty list permits every address. */
@Injectable()
export class IpAllowlistGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (!principal || principal.allowlist.length === 0) return true;
    const ip = request.clientIp ?? request.ip;
    if (ipMatchesAny(ip, principal.allowlist)) return true;
    throw new DomainError('ip_not_allowed', `Requests from ${ip} are not on this account's IP allowlist.`);
  }
}
