import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { extractIdempotencyKey } from './idempotency-key.extractor';

/**
 * The request's idempotency key for a handler that needs it itself (payment initialize resumes the
 * same payment on a retry after a provider timeout, which the idempotency layer does not store).
 * `bodyField` is the route's body alias, as given to @IdempotencyBodyKey.
 */
export const IdempotencyKey = createParamDecorator((bodyField: string | undefined, ctx: ExecutionContext): string | undefined => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return extractIdempotencyKey(request.headers, request.body, bodyField);
});
