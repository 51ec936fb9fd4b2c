import { Injectable } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import {
  type DeveloperContext,
  type FeedPage,
  type FeedPosition,
  feedNowPosition,
  feedNowSql,
  feedReadSql,
  type FeedRowPosition,
  FEED_START,
  toFeedPage,
} from '@gateway/platform';
import { DataSource } from 'typeorm';

/** An event as the feed reads it. */
export interface FeedEventRow extends FeedRowPosition {
  id: string;
  mode: Mode;
  name: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The account filter first: the feed indexes are (developer_id, mode, [name,] feed_txid, feed_seq). */
const TENANT = ['developer_id = $1', 'mode = $2'];

const POSITION_SQL = `SELECT feed_txid::text AS feed_txid, feed_seq::text AS feed_seq FROM events WHERE id = $1 AND developer_id = $2 AND mode = $3`;

// Whoever waits holds a lease on their account for this long; the trigger on events NOTIFYs only
// for an account with a live lease (migration AddEventFeed).
const LEASE_SQL = `
  INSERT INTO event_feed_listeners (developer_id, mode, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
  ON CONFLICT (developer_id, mode) DO UPDATE SET expires_at = GREATEST(event_feed_listeners.expires_at, EXCLUDED.expires_at)`;

/** The event feed's reads of the events table, and the listeners' leases (event_feed_listeners). */
@Injectable()
export class EventsFeedRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The account's events after `after`, oldest first, optionally only those named in `names`. */
  async read(ctx: DeveloperContext, after: FeedPosition, limit: number, names?: readonly string[]): Promise<FeedPage<FeedEventRow>> {
    const params: unknown[] = [ctx.developerId, ctx.mode];
    const bind = (value: unknown) => `$${params.push(value)}`;
    // By name, each name's range of events_feed_by_name: a page costs the same however rare the names are.
    const oneOf = names?.length ? { column: 'name', values: bind([...new Set(names)]) } : undefined;
    const sql = feedReadSql({ columns: 'id, mode, name, data, created_at', table: 'events', where: TENANT, oneOf }, after, limit, bind);
    return toFeedPage((await this.dataSource.query(sql, params)) as FeedEventRow[], after, limit);
  }

  /** The feed's "now" for the account: what commits from here on comes after it. */
  async now(ctx: DeveloperContext): Promise<FeedPosition> {
    const [row] = (await this.dataSource.query(feedNowSql({ table: 'events', where: TENANT }), [ctx.developerId, ctx.mode])) as FeedRowPosition[];
    return feedNowPosition(row);
  }

  /**
   * The position of one of the account's events; null when it has none by that id. An event
   * written before the feed existed has no position and comes before every one that has.
   */
  async positionOf(ctx: DeveloperContext, eventId: string): Promise<FeedPosition | null> {
    const [row] = (await this.dataSource.query(POSITION_SQL, [eventId, ctx.developerId, ctx.mode])) as Array<{ feed_txid: string | null; feed_seq: string | null }>;
    if (!row) return null;
    return row.feed_txid === null || row.feed_seq === null ? FEED_START : { txid: BigInt(row.feed_txid), seq: BigInt(row.feed_seq) };
  }

  /** Makes new events of the account NOTIFY for the next `seconds` (extends, never shortens, a lease). */
  async holdListenerLease(ctx: DeveloperContext, seconds: number): Promise<void> {
    await this.dataSource.query(LEASE_SQL, [ctx.developerId, ctx.mode, seconds]);
  }
}
