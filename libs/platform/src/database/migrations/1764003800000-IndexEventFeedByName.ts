import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * The event feed filtered by event name (`GET /api/v1/events?type=…`) reads each named event's own
 * range of this index from its position, at most a page of each, and merges them in feed order
 * (EventsFeedRepository): a page costs the same whether the account holds ten events or ten
 * million, and whether the names are common or absent. Through `events_feed` alone, a name the
 * account rarely or never emits was looked for in every event after the position: the whole
 * account for a client reading from the start (docs/benchmarks.md, "The event feed by name").
 *
 * `events_listing` (newest first by creation time) goes: no statement has read it since the feed
 * replaced listing by time, and every event paid for it. So an event is written into as many
 * indexes as before.
 *
 * Online, so it runs outside a transaction: built CONCURRENTLY, events go on being written meanwhile.
 */
const INDEXES: OnlineIndex[] = [
  {
    name: 'events_feed_by_name',
    definition: 'events (developer_id, mode, name, feed_txid, feed_seq) WHERE feed_txid IS NOT NULL',
    replaces: { name: 'events_listing', definition: 'events (developer_id, mode, created_at DESC, id DESC)' },
  },
];

export class IndexEventFeedByName1764003800000 implements MigrationInterface {
  name = 'IndexEventFeedByName1764003800000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeIndexesOnline(q, INDEXES);
  }
}
