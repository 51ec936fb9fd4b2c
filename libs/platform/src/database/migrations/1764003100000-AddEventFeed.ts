import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event feed (GET /api/v1/events, docs/event-feed.md): an account's events oldest first, read
 * after a position, and a long-poll woken by NOTIFY.
 *
 * Position: `feed_txid` (the writing transaction, pg_current_xact_id()) and `feed_seq` (a
 * sequence), both filled by their defaults, so no writer changes. The feed reads only rows of
 * transactions below its snapshot's xmin, in (feed_txid, feed_seq) order: created_at or a
 * sequence alone are assigned before commit, and a reader would skip a row whose transaction
 * commits after a later one was read (libs/platform/src/pagination/commit-order-feed.ts).
 * Existing rows keep both columns null and stay out of the feed: no rewrite of the table at
 * upgrade; the feed starts with the first event written after it.
 *
 * Wake-up: a long-poll registers its account in `event_feed_listeners` (unlogged: a lease, worth
 * nothing after a crash) and a trigger NOTIFYs `gateway_events` with `<developer_id>:<mode>` only
 * for an account someone is waiting on. A NOTIFY serialises the commits of the transactions that
 * send one (PostgreSQL holds a global lock from the notifying transaction's commit until it has
 * finished), so emitting events for nobody must not pay for it.
 */
export class AddEventFeed1764003100000 implements MigrationInterface {
  name = 'AddEventFeed1764003100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN feed_txid xid8, ADD COLUMN feed_seq bigint`);
    await q.query(`CREATE SEQUENCE events_feed_seq OWNED BY events.feed_seq`);
    await q.query(`ALTER TABLE events ALTER COLUMN feed_txid SET DEFAULT pg_current_xact_id(), ALTER COLUMN feed_seq SET DEFAULT nextval('events_feed_seq')`);
    await q.query(`CREATE INDEX events_feed ON events (developer_id, mode, feed_txid, feed_seq) WHERE feed_txid IS NOT NULL`);

    await q.query(`
      CREATE UNLOGGED TABLE event_feed_listeners (
        developer_id uuid NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (developer_id, mode)
      )`);
    await q.query(`
      CREATE FUNCTION notify_event_feed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM event_feed_listeners
                    WHERE developer_id = NEW.developer_id AND mode = NEW.mode AND expires_at > now()) THEN
          PERFORM pg_notify('gateway_events', NEW.developer_id::text || ':' || NEW.mode);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER events_notify_feed AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION notify_event_feed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER events_notify_feed ON events`);
    await q.query(`DROP FUNCTION notify_event_feed()`);
    await q.query(`DROP TABLE event_feed_listeners`);
    await q.query(`DROP INDEX events_feed`);
    await q.query(`ALTER TABLE events DROP COLUMN feed_seq, DROP COLUMN feed_txid`);
  }
}
