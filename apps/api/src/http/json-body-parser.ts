import { DomainError } from '@gateway/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact request body text, kept for signature verification (provider webhooks). */
    rawBody?: string;
  }
}

/**
 * JSON bodies go through Fastify's hardened parser (prototype-poisoning checks); a malformed
 * body becomes `invalid_json`, an empty one is treated as no body, and the raw text is kept.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      const text = body.toString();
      request.rawBody = text;
      if (text.trim() === '') return done(null, undefined);
      parseJson(request, text, (error, value) =>
        error ? done(new DomainError('invalid_json', 'The request body is not valid JSON.')) : done(null, value),
      );
    },
  );
}
