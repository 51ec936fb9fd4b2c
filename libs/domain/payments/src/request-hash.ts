import { createHash } from 'node:crypto';

/**
 * A stable digest of what a request asked for, stored with the row an Idempotency-Key created so a
 * retry under that key with other values is recognised (422 `idempotency_key_reused`) even when
 * the API's idempotency record is gone — a 5xx is never stored there. Object keys are sorted at
 * every level, so `{a, b}` and `{b, a}` are the same request.
 */
export function requestHash(request: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(sortKeys(request))).digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
