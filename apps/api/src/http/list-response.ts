import type { ListMeta } from '@gateway/contracts';
import type { Page } from '@gateway/platform';

/** What a controller returns for a cursor-paginated list; the envelope interceptor adds `meta`. */
export class ListResponse<T> {
  constructor(
    readonly items: T[],
    readonly meta: ListMeta,
  ) {}

  static of<R, T>(page: Page<R>, map: (row: R) => T): ListResponse<T> {
    return new ListResponse(page.items.map(map), { next_cursor: page.nextCursor, has_more: page.hasMore, limit: page.limit });
  }
}
