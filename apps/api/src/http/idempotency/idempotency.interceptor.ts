import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type IdempotencyClaim, IdempotencyService, requestFingerprint } from '@gateway/domain/idempotency';
import { failpoint } from '@gateway/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Observable, of } from 'rxjs';
import { developerContext } from '../auth/principal';
import { routeMetadata } from '../route-metadata';
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
 * Idempotency keys on API-key routes. Runs after the guard chain (refusals there never touch a
 * key) and outside the envelope interceptor, so a replay is the stored text as is and is never
 * wrapped a second time. Before the handler it claims the key or answers from the stored
 * response; what happens afterwards is the response recorder's job, which sees the final bytes
 * whichever way the request ends (success envelope, error filter, validation refusal).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = request.principal;
    if (!MUTATING_METHODS.has(request.method) || !principal) return next.handle();
    const route = routeMetadata(this.reflector, context);
    if (route.access?.kind !== 'api-key') return next.handle();
    const bodyField = route.idempotencyBodyField;
    const key = extractIdempotencyKey(request.headers, request.body, bodyField);
    if (key === undefined) return next.handle();

    const outcome = await this.idempotency.claim(developerContext(principal), {
      method: request.method,
      // The pattern (`/api/v1/customers/:ref`), so a trailing slash does not make another scope.
      route: request.routeOptions.url ?? request.url.split('?')[0],
      key,
      requestHash: fingerprint(request, bodyField),
    });
    if (outcome.kind === 'replay') {
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      reply.status(outcome.response.status).header('content-type', JSON_CONTENT_TYPE).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      // A string with a JSON content type is sent by Fastify exactly as given.
      return of(outcome.response.body);
    }
    request.idempotencyClaim = outcome.claim;
    failpoint('idempotency.after-claim');
    return next.handle();
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
