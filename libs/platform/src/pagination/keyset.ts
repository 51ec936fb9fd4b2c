import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { CursorCodec, CursorFields, DecodedPosition, EncodedPosition } from './cursor-codec';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  limit: number;
}

/** What a list endpoint asks for: a page size and, after the first page, the previous `next_cursor`. */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** The keyset parts of a raw SQL query; values are bound through the caller's `bind`. */
export interface KeysetSql {
  /** `(created_at, id) < ($4, $5)`, or null on the first page. */
  where: string | null;
  /** `created_at DESC, id DESC`. */
  orderBy: string;
  /** The placeholder bound to limit + 1. */
  limit: string;
}

/**
 * One page's read of a keyset-ordered list: rows strictly after the cursor's position, newest
 * first, one more than the page shows (that extra row says whether another page exists). Rows
 * inserted while a client pages never cause a gap or a duplicate, and no page costs an OFFSET.
 */
export interface KeysetPageQuery<S extends CursorFields> {
  readonly limit: number;
  /** Where the page starts (the cursor's position), null on the first page. */
  readonly after: DecodedPosition<S> | null;
  /** TypeORM: adds the keyset condition (call after the query's `where`), the order and LIMIT limit + 1. */
  applyTo<E extends ObjectLiteral>(query: SelectQueryBuilder<E>, alias: string): SelectQueryBuilder<E>;
  /** Raw SQL: the condition, order and limit to splice in; `alias` qualifies the columns. */
  sql(bind: (value: unknown) => string, alias?: string): KeysetSql;
  /** The page from rows read with `applyTo` or `sql`; the last row shown is the next cursor. */
  toPage<R extends EncodedPosition<S>, T>(rows: R[], map: (row: R) => T): Page<T>;
  /** As above, for rows that carry their position under other names (e.g. a microsecond text column). */
  toPage<R, T>(rows: R[], map: (row: R) => T, positionOf: (row: R) => EncodedPosition<S>): Page<T>;
}

export interface KeysetOrder<S extends CursorFields> {
  readonly codec: CursorCodec<S>;
  /** @throws validation_error (field `cursor`) for a cursor this list did not issue, before any query runs */
  page(request: PageRequest): KeysetPageQuery<S>;
}

/**
 * Declares a list's keyset order: its cursor (the fields, in order of significance) and the column
 * each field is read from. Every list is newest (highest) first.
 */
export function defineKeyset<S extends CursorFields>(codec: CursorCodec<S>, columns: { readonly [F in keyof S]: string }): KeysetOrder<S> {
  const fields = Object.keys(codec.fields) as Array<keyof S & string>;
  return {
    codec,
    page: (request) => keysetPage(codec, fields, columns, request.limit, request.cursor === undefined ? null : codec.decode(request.cursor)),
  };
}

function keysetPage<S extends CursorFields>(
  codec: CursorCodec<S>,
  fields: Array<keyof S & string>,
  columns: { readonly [F in keyof S]: string },
  limit: number,
  after: DecodedPosition<S> | null,
): KeysetPageQuery<S> {
  const qualified = (alias: string | undefined) => fields.map((field) => (alias ? `${alias}.${columns[field]}` : columns[field]));
  // bigint sequences are bound as text: PostgreSQL reads them exactly, whatever the driver does with bigint.
  const valueOf = (field: keyof S & string) => {
    const value = (after as DecodedPosition<S>)[field];
    return typeof value === 'bigint' ? value.toString() : value;
  };
  const condition = (alias: string | undefined, placeholders: string[]) => {
    const names = qualified(alias);
    return names.length === 1 ? `${names[0]} < ${placeholders[0]}` : `(${names.join(', ')}) < (${placeholders.join(', ')})`;
  };
  return {
    limit,
    after,
    applyTo(query, alias) {
      if (after) {
        const names = fields.map((field) => `keyset_${field}`);
        query.andWhere(
          condition(alias, names.map((name) => `:${name}`)),
          Object.fromEntries(fields.map((field, index) => [names[index], valueOf(field)])),
        );
      }
      qualified(alias).forEach((column, index) => (index === 0 ? query.orderBy(column, 'DESC') : query.addOrderBy(column, 'DESC')));
      return query.limit(limit + 1);
    },
    sql(bind, alias) {
      const where = after ? condition(alias, fields.map((field) => bind(valueOf(field)))) : null;
      const orderBy = qualified(alias).map((column) => `${column} DESC`).join(', ');
      return { where, orderBy, limit: bind(limit + 1) };
    },
    toPage<R, T>(rows: R[], map: (row: R) => T, positionOf?: (row: R) => EncodedPosition<S>): Page<T> {
      const hasMore = rows.length > limit;
      const visible = hasMore ? rows.slice(0, limit) : rows;
      const last = visible[visible.length - 1];
      const position = positionOf ?? ((row: R) => row as unknown as EncodedPosition<S>);
      return {
        items: visible.map(map),
        nextCursor: hasMore && last !== undefined ? codec.encode(position(last)) : null,
        hasMore,
        limit,
      };
    },
  };
}
