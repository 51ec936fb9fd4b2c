import type { Page } from './keyset';

/** Rows per page when a whole list is read through (exports): large enough to amortise the query, small enough to keep memory flat. */
export const READ_THROUGH_PAGE_SIZE = 1_000;

/**
 * Every item of a keyset-paginated list, in the list's own order, read one page at a time (the
 * caller's `read` is the list itself with `limit` and `cursor`), each mapped with `map`. Memory
 * stays at one page whatever the list's length; rows created while it reads are newer than where
 * it started, so they are neither repeated nor half-read.
 */
export async function* allPages<T, R>(read: (cursor: string | undefined) => Promise<Page<T>>, map: (item: T) => R): AsyncGenerator<R> {
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    for (const item of page.items) yield map(item);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
