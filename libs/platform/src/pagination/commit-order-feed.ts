import { DomainError } from '../errors';
import { defineCursor } from './cursor-codec';

/**
 * Feeds: a table read oldest first, by a client that keeps asking for "what is new after the last
 * thing I saw" (the event feed, the request-log tail). Ordering by created_at or by a sequence
 * would skip rows: both are assigned before commit, so a transaction that took an earlier value
 * can commit after a later one was already read past. A feed table therefore records, per row,
 * the writing transaction (`feed_txid xid8 DEFAULT pg_current_xact_id()`) and a sequence
 * (`feed_seq`), and a read returns only rows of transactions older than the reading snapshot's
 * xmin — every transaction below it has finished, so no row can still appear there — ordered by
 * (feed_txid, feed_seq). A row of a transaction that was still running is simply read a little
 * later, once it and every older writer have finished (usually milliseconds).
 */
export interface FeedPosition {
  txid: bigint;
  seq: bigint;
}

/** Before every row. */
export const FEED_START: FeedPosition = { txid: 0n, seq: 0n };

const FEED_CURSOR = defineCursor({ txid: 'bigint', seq: 'bigint' });

/** Opaque to clients: pass it back as `?after=`. */
export function encodeFeedPosition(position: FeedPosition): string {
  return FEED_CURSOR.encode(position);
}

/** @throws validation_error naming `field` for anything encodeFeedPosition did not produce */
export function decodeFeedPosition(cursor: string, field = 'after'): FeedPosition {
  try {
    return FEED_CURSOR.decode(cursor);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError('validation_error', 'The request is invalid.', { [field]: ['is not a cursor this feed returned'] });
  }
}

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

export function laterOf(a: FeedPosition, b: FeedPosition): FeedPosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

/** What a feed statement returns per row besides the caller's own columns (all as text: xid8 and bigint exceed a JS number). */
export interface FeedRowPosition {
  feed_horizon: string;
  feed_txid: string | null;
  feed_seq: string | null;
}

export interface FeedStatement {
  /** The caller's columns of `table`, e.g. `id, name, data`. */
  columns: string;
  /** A plain table name (it also qualifies the order, which the text positions' aliases would otherwise shadow). */
  table: string;
  /** The caller's conditions (tenant first, so the feed index applies), already bound. */
  where: string[];
  /**
   * Only rows whose `column` is one of `values` (a bound text array, no duplicates), each value's
   * rows read from its own index range (tenant columns…, column, feed_txid, feed_seq) and merged:
   * a page reads at most a page of each value, where a filter on the feed index reads every row
   * after the position until the page fills (the whole account, when the values are rare).
   */
  oneOf?: { column: string; values: string };
}

/**
 * One feed read after `after`: at most limit + 1 rows (the extra one says there is more), each with
 * its position, and always at least one row carrying the snapshot's horizon (all other columns
 * null when nothing was found). The table needs an index on (tenant columns…, feed_txid, feed_seq).
 */
export function feedReadSql(statement: FeedStatement, after: FeedPosition, limit: number, bind: (value: unknown) => string): string {
  const txid = `${bind(after.txid.toString())}::xid8`;
  const seq = `${bind(after.seq.toString())}::bigint`;
  const where = [...statement.where, 'feed_txid IS NOT NULL', 'feed_txid < horizon.xmin'];
  const { table, oneOf } = statement;
  const pageSize = bind(limit + 1);
  const ordered = `ORDER BY ${table}.feed_txid, ${table}.feed_seq LIMIT ${pageSize}`;
  // The table's name stays the rows' qualifier either way (the text positions' aliases shadow the columns).
  // With oneOf, the position is compared with the value in front: the same bound, which only the
  // value's own index range can serve. Left as (feed_txid, feed_seq) > …, it bounds the feed index
  // too, and an estimate that few rows follow the position (a position past the statistics' last
  // sample: every position newer than the last ANALYZE) made PostgreSQL read that index after the
  // position, every event of every name, and keep the value's.
  const rows = oneOf
    ? `unnest(${oneOf.values}::text[]) AS wanted(value)
         CROSS JOIN LATERAL (
           SELECT * FROM ${table}
            WHERE ${[...where, `${oneOf.column} = wanted.value`, `(${oneOf.column}, feed_txid, feed_seq) > (wanted.value, ${txid}, ${seq})`].join(' AND ')}
            ${ordered}
         ) ${table}`
    : `${table} WHERE ${[...where, `(feed_txid, feed_seq) > (${txid}, ${seq})`].join(' AND ')}`;
  return `
    WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
    SELECT horizon.xmin::text AS feed_horizon, page.*
      FROM horizon
      LEFT JOIN LATERAL (
        SELECT ${statement.columns}, ${table}.feed_txid::text AS feed_txid, ${table}.feed_seq::text AS feed_seq
          FROM ${rows}
         ${ordered}
      ) page ON true`;
}

/**
 * "Now" in a feed: after the newest row already readable and after every finished transaction, so
 * a client starting here gets what commits from now on. A transaction still running at this
 * moment, older than the newest row, counts as before now. One row: feed_horizon and the newest
 * row's position (null when the table holds none for the tenant).
 */
export function feedNowSql(statement: Omit<FeedStatement, 'columns'>): string {
  return `
    WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
    SELECT horizon.xmin::text AS feed_horizon, newest.feed_txid::text AS feed_txid, newest.feed_seq::text AS feed_seq
      FROM horizon
      LEFT JOIN LATERAL (
        SELECT feed_txid, feed_seq FROM ${statement.table}
         WHERE ${[...statement.where, 'feed_txid IS NOT NULL'].join(' AND ')}
         ORDER BY feed_txid DESC, feed_seq DESC
         LIMIT 1
      ) newest ON true`;
}

/** The position feedNowSql's row stands for. */
export function feedNowPosition(row: FeedRowPosition): FeedPosition {
  return laterOf(horizonPosition(row), positionOf(row) ?? FEED_START);
}

export interface FeedPage<R> {
  rows: R[];
  /** Where the next read starts: never before `after`. */
  next: FeedPosition;
  hasMore: boolean;
}

/**
 * The page from a feedReadSql result. Without more rows to come, the next read may start at the
 * horizon: every row below it was either just returned or skipped by the caller's filters, so a
 * filtered feed does not re-scan the same non-matching rows on every read.
 */
export function toFeedPage<R extends FeedRowPosition>(result: R[], after: FeedPosition, limit: number): FeedPage<R> {
  const rows = result.filter((row) => row.feed_txid !== null);
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown.length ? positionOf(shown[shown.length - 1]) : undefined;
  if (hasMore) return { rows: shown, next: last as FeedPosition, hasMore };
  const horizon = result.length ? horizonPosition(result[0]) : FEED_START;
  return { rows: shown, next: laterOf(laterOf(after, last ?? FEED_START), horizon), hasMore };
}

/** Rows of transactions below the horizon are all readable; the horizon's own transaction may still write (seq ≥ 1). */
function horizonPosition(row: FeedRowPosition): FeedPosition {
  return { txid: BigInt(row.feed_horizon), seq: 0n };
}

function positionOf(row: FeedRowPosition): FeedPosition | undefined {
  return row.feed_txid === null || row.feed_seq === null ? undefined : { txid: BigInt(row.feed_txid), seq: BigInt(row.feed_seq) };
}
