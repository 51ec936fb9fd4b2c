import { defineCursor, type DecodedPosition, type EncodedPosition } from './cursor-codec';
import { defineKeyset, type KeysetPageQuery, type Page } from './keyset';

const CREATED_AT_FIELDS = { createdAt: 'timestamp', id: 'uuid' } as const;

/** The position most lists page by, newest first: the (created_at, id) of the last row returned. */
export const createdAtCursor = defineCursor(CREATED_AT_FIELDS);

export type CursorPosition = EncodedPosition<typeof CREATED_AT_FIELDS>;
export type DecodedCursorPosition = DecodedPosition<typeof CREATED_AT_FIELDS>;

/** The order most lists use: (created_at, id), newest first. */
export const newestFirst = defineKeyset(createdAtCursor, { createdAt: 'created_at', id: 'id' });
/** One page's read in that order, for a repository that takes it from its caller. */
export type NewestFirstPage = KeysetPageQuery<typeof CREATED_AT_FIELDS>;

/** Opaque to clients. */
export function encodeCursor(position: CursorPosition): string {
  return createdAtCursor.encode(position);
}

/**
 * The position to continue after, its created_at as validated text (bind it as a query parameter).
 * @throws validation_error (field `cursor`) for a cursor this API did not issue.
 */
export function decodeCursor(cursor: string): DecodedCursorPosition {
  return createdAtCursor.decode(cursor);
}

/** A page from rows read in `newestFirst` order with LIMIT limit + 1 (see `newestFirst.page(…).toPage`). */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  return newestFirst.page({ limit }).toPage(rows, map);
}
