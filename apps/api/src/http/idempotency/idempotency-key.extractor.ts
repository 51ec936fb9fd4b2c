import type { FieldErrors } from '@gateway/contracts';
import { idempotencyKeyProblem } from '@gateway/domain/idempotency';
import { DomainError } from '@gateway/platform';
import type { IncomingHttpHeaders } from 'node:http';

/** Where a key may come from, by the name a client knows it under. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_HEADER_ALIAS = 'X-Idempotency-Key';

/**
 * The request's idempotency key, from `Idempotency-Key`, `X-Idempotency-Key` or (when the route
 * declared one) a body field; undefined when none is sent. Sending it in several places is allowed
 * only with the same value everywhere.
 * @throws validation_error for a malformed key or two different values
 */
export function extractIdempotencyKey(headers: IncomingHttpHeaders, body: unknown, bodyField?: string): string | undefined {
  const given: Array<[source: string, value: unknown]> = [
    [IDEMPOTENCY_HEADER, headers[IDEMPOTENCY_HEADER.toLowerCase()]],
    [IDEMPOTENCY_HEADER_ALIAS, headers[IDEMPOTENCY_HEADER_ALIAS.toLowerCase()]],
  ];
  if (bodyField && isJsonObject(body)) given.push([bodyField, body[bodyField] ?? undefined]);
  const present = given.filter(([, value]) => value !== undefined);

  const errors: FieldErrors = {};
  for (const [source, value] of present) {
    const problem = typeof value === 'string' ? idempotencyKeyProblem(value) : 'must be a string';
    if (problem) errors[source] = [problem];
  }
  if (Object.keys(errors).length) throw new DomainError('validation_error', 'The idempotency key is invalid.', errors);

  const distinct = new Set(present.map(([, value]) => value as string));
  if (distinct.size > 1) {
    const sources = present.map(([source]) => source);
    throw new DomainError(
      'validation_error',
      `The idempotency key was sent with different values in ${sources.join(' and ')}; send one key.`,
      Object.fromEntries(sources.map((source) => [source, ['must equal the other idempotency key sent with the request']])),
    );
  }
  return present[0]?.[1] as string | undefined;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
