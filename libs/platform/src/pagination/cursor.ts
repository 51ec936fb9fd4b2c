import { DomainError } from '../errors';

/** A position in a newest-first list: the (created_at, id) of the last row returned. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  limit: number;
}

/** Opaque to clients; base64url of "<iso time>|<id>". */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** @throws validation_error for a cursor this service did not issue. */
export function decodeCursor(cursor: string): CursorPosition {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw new DomainError('validation_error', 'The cursor is not valid.', { cursor: ['is not a cursor returned by this API'] });
  }
  return { createdAt, id };
}

/**
 * Builds a page from rows fetched with LIMIT limit + 1, ordered by (created_at DESC, id DESC).
 * Keyset pagination: rows inserted while a client pages never cause a gap or a duplicate.
 */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const visible = hasMore ? rows.slice(0, limit) : rows;
  const last = visible[visible.length - 1];
  return {
    items: visible.map(map),
    nextCursor: hasMore && last ? encodeCursor(last) : null,
    hasMore,
    limit,
  };
}
