import { DomainError } from '../errors';

/**
 * The one keyset-cursor codec. A cursor is opaque to clients (base64url of its fields joined by
 * `|`) and strict on the way back in: a list declares what its fields are, and a cursor whose
 * fields are not exactly that — forged, truncated, another list's, or holding a value PostgreSQL
 * would refuse (a year past 9999, February 30th, a uuid of dashes, a sequence past bigint) — is a
 * 400 `validation_error` naming `cursor`, never a query that fails.
 */
export type CursorFieldKind = 'timestamp' | 'uuid' | 'bigint';

/** What a list passes in for each kind: timestamps as a Date or as their text (to the microsecond). */
type EncodedValue<K extends CursorFieldKind> = K extends 'timestamp' ? Date | string : K extends 'bigint' ? bigint : string;
/** What comes back: timestamps and uuids as validated text, ready to be bound as query parameters. */
type DecodedValue<K extends CursorFieldKind> = K extends 'bigint' ? bigint : string;

export type CursorFields = Record<string, CursorFieldKind>;
export type EncodedPosition<S extends CursorFields> = { [F in keyof S]: EncodedValue<S[F]> };
export type DecodedPosition<S extends CursorFields> = { [F in keyof S]: DecodedValue<S[F]> };

export interface CursorCodec<S extends CursorFields> {
  /** The cursor's fields, in the order they are written. */
  readonly fields: S;
  encode(position: EncodedPosition<S>): string;
  /** @throws validation_error (field `cursor`) for anything `encode` did not produce */
  decode(cursor: string): DecodedPosition<S>;
}

/** Declares a list's cursor: its fields, in order, and the kind of each. */
export function defineCursor<const S extends CursorFields>(fields: S): CursorCodec<S> {
  const entries = Object.entries(fields) as Array<[keyof S & string, CursorFieldKind]>;
  return {
    fields,
    encode(position) {
      const texts = entries.map(([name, kind]) => {
        const text = writeField(kind, position[name] as Date | string | bigint);
        // Our own rows always fit; a value that does not is a bug, not a client error.
        if (readField(kind, text) === undefined) throw new Error(`cursor field ${name} cannot hold ${text}`);
        return text;
      });
      return Buffer.from(texts.join(SEPARATOR), 'utf8').toString('base64url');
    },
    decode(cursor) {
      const texts = cursorText(cursor)?.split(SEPARATOR);
      if (texts?.length !== entries.length) throw invalidCursor();
      const position: Partial<Record<keyof S, string | bigint>> = {};
      entries.forEach(([name, kind], index) => {
        const value = readField(kind, texts[index]);
        if (value === undefined) throw invalidCursor();
        position[name] = value;
      });
      return position as DecodedPosition<S>;
    },
  };
}

const SEPARATOR = '|';
/** Far more than any cursor we issue (three fields at most); ListQueryDto caps the query at 200. */
const MAX_CURSOR_LENGTH = 256;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The decoded text, or undefined unless `cursor` is exactly what base64url-encoding it gives back. */
function cursorText(cursor: string): string | undefined {
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Buffer decoding is lenient (stray bits, invalid UTF-8 become U+FFFD): only a round trip is proof.
  return Buffer.from(text, 'utf8').toString('base64url') === cursor ? text : undefined;
}

function writeField(kind: CursorFieldKind, value: Date | string | bigint): string {
  if (kind === 'timestamp' && value instanceof Date) return value.toISOString();
  return String(value);
}

function readField(kind: CursorFieldKind, text: string): string | bigint | undefined {
  switch (kind) {
    case 'timestamp':
      return isTimestampInRange(text) ? text : undefined;
    case 'uuid':
      return UUID.test(text) ? text : undefined;
    case 'bigint':
      return BIGINT.test(text) && BigInt(text) <= MAX_BIGINT ? BigInt(text) : undefined;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A non-negative integer without leading zeros, at most 19 digits (PostgreSQL bigint's width). */
const BIGINT = /^(?:0|[1-9]\d{0,18})$/;
const MAX_BIGINT = 2n ** 63n - 1n;

/** UTC, whole seconds to microseconds: `2025-01-02T03:04:05Z`, `…05.123Z`, `…05.123456Z`. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;
/** No row of ours predates 1970; 9999 is the last year a four-digit timestamp can name. */
const FIRST_YEAR = 1970;

/** A real instant: month 1–12, a day the month has, 00:00:00–23:59:59, year 1970–9999. */
function isTimestampInRange(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  if (year < FIRST_YEAR || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  // Day 0 of the next month is the last day of this one (years ≥ 1970 are never remapped by Date.UTC).
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= daysInMonth;
}

function invalidCursor(): DomainError {
  return new DomainError('validation_error', 'The cursor is not valid.', { cursor: ['is not a cursor returned by this list'] });
}
