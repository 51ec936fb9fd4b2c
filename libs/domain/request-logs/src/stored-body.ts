import { redactSensitive } from './redaction';

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
 * The JSON text to store for a request or response body, or null:
 * - no body, or a body that is not JSON → null;
 * - more than 64 KiB → a TruncatedBodyMarker. Nothing of the content is kept: a cut JSON text
 *   cannot be parsed, so it could not be redacted either;
 * - otherwise the parsed body with every sensitive value replaced by `[REDACTED]`.
 */
export function storableBody(body: BodyText): string | null {
  if (body === null || body === undefined || body.length === 0) return null;
  const sizeBytes = Buffer.byteLength(body);
  if (sizeBytes > MAX_STORED_BODY_BYTES) {
    const marker: TruncatedBodyMarker = { truncated: true, size_bytes: sizeBytes };
    return JSON.stringify(marker);
  }
  const text = body.toString();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
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
