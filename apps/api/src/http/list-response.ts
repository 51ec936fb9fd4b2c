import type { ListMeta } from '@gateway/contracts';

/** What a controller returns for a cursor-paginated list; the envelope interceptor adds `meta`. */
export class ListResponse<T> {
  constructor(
    readonly items: T[],
    readonly meta: ListMeta,
  ) {}
}
