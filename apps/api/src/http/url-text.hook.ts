import { DomainError, isStorableText } from '@gateway/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNSTORABLE_TEXT_MESSAGE } from './json-body-parser';

/**
 * Path parameters and query values are looked up in PostgreSQL, which refuses text holding a NUL
 * (`/payments/%00`) with an error that used to surface as 500. Such a value can name nothing, so
 * it is refused up front — before authentication and before the body is read, like malformed
 * JSON — as 400 `validation_error` naming the parameter.
 */
export function registerUrlTextCheck(fastify: FastifyInstance): void {
  // Callback style: an async hook costs a promise and a microtask hop on every request.
  fastify.addHook('onRequest', (request, _reply, done) => {
    const field = unstorableUrlField(request);
    done(field === null ? undefined : new DomainError('validation_error', 'The request is invalid.', { [field]: [UNSTORABLE_TEXT_MESSAGE] }));
  });
}

/** The name of the first path parameter or query value holding unstorable text, or null. */
function unstorableUrlField(request: FastifyRequest): string | null {
  for (const values of [request.params, request.query]) {
    if (values === null || typeof values !== 'object') continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      if (!isStorableText(name)) return 'query';
      const texts = Array.isArray(value) ? value : [value];
      if (texts.some((text) => typeof text === 'string' && !isStorableText(text))) return name;
    }
  }
  return null;
}
