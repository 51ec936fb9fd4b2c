import { DomainError, isStorableText } from '@gateway/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact request body text, kept for signature verification (provider webhooks). */
    rawBody?: string;
  }
}

/**
 * JSON bodies go through Fastify's hardened parser (prototype-poisoning checks); a malformed
 * body becomes `invalid_json`, an empty one is treated as no body, and the raw text is kept.
 * Text no column can hold (NUL, lone surrogates) is refused as `validation_error` naming its field.
 * A body nested deeper than MAX_JSON_DEPTH is refused before it is parsed (see exceedsJsonDepth).
 *
 * Routes in `rawOnly` get the raw text and no parsed body: the provider's signed callbacks are
 * read by the adapter only after their signature is checked, and an authentic callback is never
 * refused for its shape (a refusal would only make the provider deliver it again forever).
 */
export function registerJsonParser(fastify: FastifyInstance, rawOnly: readonly string[] = []): void {
  const rawOnlyRoutes = new Set(rawOnly);
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      const text = body.toString();
      request.rawBody = text;
      if (text.trim() === '' || rawOnlyRoutes.has(request.routeOptions.url ?? '')) return done(null, undefined);
      if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
        return done(new DomainError('validation_error', 'The request is invalid.', { body: [`must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`] }));
      }
      parseJson(request, text, (error, value) => {
        if (error) return done(new DomainError('invalid_json', 'The request body is not valid JSON.'));
        // Only a \u escape can produce such text (raw control characters are invalid JSON).
        const suspect = text.includes('\\u') ? unstorableText(value, '') : null;
        if (suspect !== null) {
          return done(new DomainError('validation_error', 'The request is invalid.', { [suspect || 'body']: [UNSTORABLE_TEXT_MESSAGE] }));
        }
        done(null, value);
      });
    },
  );
}

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates';

/**
 * The dotted path of the first key or string holding text PostgreSQL cannot store (NUL, or a
 * lone surrogate, which is not Unicode) — refused up front as a field error instead of failing
 * as an internal error when written. Null when there is none.
 */
function unstorableText(value: unknown, path: string): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableText(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return itemPath;
      const found = unstorableText(item, itemPath);
      if (found !== null) return found;
    }
  }
  return null;
}
