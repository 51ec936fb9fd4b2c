import { MAX_REDACTION_DEPTH, redactSensitive } from './redaction';

/** Bodies larger than this are not stored; a marker with their size is stored instead. */
export const MAX_STORED_BODY_BYTES = 64 * 1024;

/** Stored in place of a body larger than MAX_STORED_BODY_BYTES. */
export interface TruncatedBodyMarker {
  truncated: true;
  size_bytes: number;
}

/** A body as it travelled: its text (or bytes), or nothing. */
export type BodyText = string | Buffer | null | undefined;

/**
 * The JSON text to store for a request or response body, or null. `serializedFrom`: the value
 * `body` is the JSON.stringify of (a response the API serialized), read instead of the text when
 * it is plain JSON data (isPlainJson); the result is the same either way.
 * - no body, or a body that is not JSON → null;
 * - more than 64 KiB → a TruncatedBodyMarker. Nothing of the content is kept: a cut JSON text
 *   cannot be parsed, so it could not be redacted either;
 * - otherwise the parsed body with every sensitive value replaced by `[REDACTED]`.
 */
export function storableBody(body: BodyText, serializedFrom?: unknown): string | null {
  if (body === null || body === undefined || body.length === 0) return null;
  const sizeBytes = Buffer.byteLength(body);
  if (sizeBytes > MAX_STORED_BODY_BYTES) {
    const marker: TruncatedBodyMarker = { truncated: true, size_bytes: sizeBytes };
    return JSON.stringify(marker);
  }
  const text = body.toString();
  let parsed: unknown;
  // The value the API serialized is what parsing its text would give back, when it is plain JSON
  // data: parsing was the largest part of logging a response (a twentieth of a GET's instructions).
  if (serializedFrom !== undefined && isPlainJson(serializedFrom, 0)) parsed = serializedFrom;
  else {
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
  }
  // Most bodies hold nothing to redact or repair: redactSensitive gives them back as they are, and
  // their text is stored as it came (the column is jsonb, so the database keeps the same value
  // either way) instead of a re-serialized copy. The check reads the decoded values, never the
  // JSON text: an escape (`"\n4084…"`) changes what precedes a card number, and a number written
  // `4.084084084084081e15` is a card number once parsed.
  const rewrite = { needed: false };
  const stored = redactSensitive(parsed, rewrite);
  return stored === parsed && !rewrite.needed ? text : JSON.stringify(stored);
}

/**
 * Whether JSON.parse(JSON.stringify(value)) would equal `value` for the redaction: nested plain
 * objects and arrays (bounded in depth, as the redaction is) of strings, finite numbers, booleans,
 * null, and Dates (written as their ISO text, which masking never changes). Anything that writes
 * itself otherwise (a class, a `toJSON`, undefined or a function that JSON leaves out, NaN written
 * as null) is not, and its text is parsed instead.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_REDACTION_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isPlainJson(item, depth + 1)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Date.prototype) return !Object.hasOwn(value, 'toJSON') && !Number.isNaN((value as Date).getTime());
  if ((prototype !== Object.prototype && prototype !== null) || Object.hasOwn(value, 'toJSON')) return false;
  for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}
