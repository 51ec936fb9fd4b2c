import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type IdempotencyClaim, IdempotencyService, requestFingerprint, type StoredResponse } from '@gateway/domain/idempotency';
import { failpoint } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiKeyPrincipal, developerContext } from '../auth/principal';
import { type RouteMetadata, routeMetadata, type RouteResponseHeader } from '../route-metadata';
import { extractIdempotencyKey } from './idempotency-key.extractor';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request holds an idempotency key; the response recorder completes or releases it. */
    idempotencyClaim?: IdempotencyClaim;
  }
}

export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The stored answer to an earlier request with the same key. A guard can only let a request
 * through or throw, so a replay leaves the chain as this "error", which the error filter answers
 * with `send` below — the stored text as is, never wrapped in another envelope, with the headers
 * the route sets on every answer (`@NoStore()`), which Nest itself would add only after the guards.
 */
export class IdempotentReplay {
  constructor(
    readonly response: StoredResponse,
    private readonly routeHeaders: readonly RouteResponseHeader[] = [],
  ) {}

  send(reply: FastifyReply): void {
    reply.status(this.response.status);
    for (const { name, value } of this.routeHeaders) reply.header(name, typeof value === 'function' ? value() : value);
    // A string with a JSON content type is sent by Fastify exactly as given.
    void reply
      .header('content-type', JSON_CONTENT_TYPE)
      .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
      .send(this.response.body);
  }
}

/**
 * Idempotency keys on API-key routes: the last guard of the routes that declare `@Idempotent()`
 * (route guards run after the global chain, so refusals there never touch a key, and before
 * validation, like the interceptor this replaced — a Nest interceptor costs an AsyncResource and an
 * rxjs pipeline per request; docs/benchmarks.md). It claims the key or answers from the stored
 * response; what happens afterwards is the response recorder's job, which sees the final bytes
 * whichever way the request ends (success envelope, error filter, validation refusal).
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  // Not async: a request without a key (most of them) passes without a promise.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (!MUTATING_METHODS.has(request.method) || !principal) return true;
    const route = routeMetadata(this.reflector, context);
    if (route.access?.kind !== 'api-key') return true;
    const key = extractIdempotencyKey(request.headers, request.body, route.idempotencyBodyField);
    return key === undefined ? true : this.claim(request, principal, key, route);
  }

  /** @throws IdempotentReplay with the stored answer, or the claim's refusals (409, 422) */
  private async claim(request: FastifyRequest, principal: ApiKeyPrincipal, key: string, route: RouteMetadata): Promise<boolean> {
    const outcome = await this.idempotency.claim(developerContext(principal, request.id), {
      method: request.method,
      // The pattern (`/api/v1/customers/:ref`), so a trailing slash does not make another scope.
      route: request.routeOptions.url ?? request.url.split('?')[0],
      key,
      requestHash: fingerprint(request, route.idempotencyBodyField),
    });
    if (outcome.kind === 'replay') throw new IdempotentReplay(outcome.response, route.responseHeaders);
    request.idempotencyClaim = outcome.claim;
    failpoint('idempotency.after-claim');
    return true;
  }
}

/**
 * What must be equal for a retry to count as the same request: the body, and — because keys are
 * scoped to the route pattern — the concrete path parameters and query. A body field carrying the
 * key is left out, so moving the key between body and header does not change the request.
 */
function fingerprint(request: FastifyRequest, bodyField: string | undefined): string {
  let body = request.body;
  if (bodyField && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { [bodyField]: _key, ...rest } = body as Record<string, unknown>;
    body = rest;
  }
  return requestFingerprint({ params: request.params ?? {}, query: request.query ?? {}, body: body ?? null });
}
