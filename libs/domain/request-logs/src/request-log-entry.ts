import type { Mode } from '@gateway/contracts';
import { REDACTED, toStorableText } from './redaction';
import { type BodyText, storableBody } from './stored-body';

/** One request to the merchant API, as the HTTP layer observed it. Headers other than the user agent are never taken. */
export interface NewRequestLogEntry {
  /** The unique request id, also sent as `X-Request-Id`. */
  requestId: string;
  /** When the request arrived. */
  createdAt: Date;
  durationMs: number;
  /** Null when the request was not authenticated (no, or an unusable, API key). */
  developerId: string | null;
  apiKeyId: string | null;
  mode: Mode | null;
  method: string;
  /** The path without the query string (which could carry anything). */
  path: string;
  /** The matched route pattern (`/api/v1/customers/:ref`), null when no route matched. */
  route: string | null;
  statusCode: number;
  /** Raw bodies: redacted and size-limited before they are buffered (see storableBody). */
  requestBody: BodyText;
  responseBody: BodyText;
  /** The value the response body is the JSON text of, when the API serialized one (read instead of parsing the text). */
  responseValue?: unknown;
  clientIp: string | null;
  userAgent: string | null;
}

/** An entry ready for the table: bodies redacted to JSON text, strings bounded and storable. */
export interface RequestLogRow {
  requestId: string;
  createdAt: Date;
  durationMs: number;
  developerId: string | null;
  apiKeyId: string | null;
  mode: Mode | null;
  method: string;
  path: string;
  route: string | null;
  statusCode: number;
  requestBody: string | null;
  responseBody: string | null;
  clientIp: string | null;
  userAgent: string | null;
}

// Generous limits: only a client probing the server sends more, and it should not cost us storage.
const MAX_PATH_CHARS = 2048;
const MAX_HEADER_CHARS = 512;

export function toRequestLogRow(entry: NewRequestLogEntry): RequestLogRow {
  return {
    requestId: entry.requestId,
    createdAt: entry.createdAt,
    durationMs: Math.max(0, Math.round(entry.durationMs)),
    developerId: entry.developerId,
    apiKeyId: entry.apiKeyId,
    mode: entry.mode,
    method: bounded(entry.method, 16),
    path: bounded(pathToStore(entry.path), MAX_PATH_CHARS),
    route: entry.route === null ? null : bounded(entry.route, MAX_PATH_CHARS),
    statusCode: entry.statusCode,
    requestBody: storableBody(entry.requestBody),
    responseBody: storableBody(entry.responseBody, entry.responseValue),
    clientIp: entry.clientIp === null ? null : bounded(entry.clientIp, 64),
    userAgent: entry.userAgent === null ? null : bounded(entry.userAgent, MAX_HEADER_CHARS),
  };
}

/**
 * The path as sent, unless its percent-escapes spell what masking hides: a card number typed with
 * spaces and encoded by the client (`/customers/4084%200840%208408%204081`), a key with `%5F` for
 * `_`. Then the decoded path, which bounded() masks. Each run of escapes is decoded on its own, so
 * a malformed one elsewhere cannot keep the rest encoded.
 */
function pathToStore(path: string): string {
  if (!path.includes('%')) return path;
  const decoded = path.replace(PERCENT_ESCAPES, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  // Only for what masking hides: a NUL (`%00`) alone keeps the path as sent.
  return decoded !== path && toStorableText(decoded).includes(REDACTED) ? decoded : path;
}

const PERCENT_ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/** Masks before cutting (a cut could leave part of a secret key unrecognised), fixes up after. */
function bounded(text: string, maxChars: number): string {
  const masked = toStorableText(text);
  return masked.length > maxChars ? toStorableText(masked.slice(0, maxChars)) : masked;
}
