import { validationError } from '@gateway/platform';

/** A position in the newest-first order: the last row a page showed. */
export interface RequestLogPosition {
  /** created_at to the microsecond, UTC (`2025-01-02T03:04:05.123456Z`). */
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque to callers; a keyset position, so rows inserted meanwhile cause no gap and no duplicate. */
export function encodeCursor(position: RequestLogPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** @throws validation_error (field `cursor`) for anything encodeCursor did not produce */
export function decodeCursor(cursor: string): RequestLogPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    typeof decoded[1] !== 'string' ||
    !TIMESTAMP.test(decoded[0]) ||
    !UUID.test(decoded[1])
  ) {
    throw validationError('cursor', 'is not a cursor returned by this list');
  }
  return { createdAt: decoded[0], id: decoded[1] };
}
