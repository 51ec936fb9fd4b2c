import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request-log feed (GET /api/v1/request-logs, the CLI's `logs tail`; docs/event-feed.md): an
 * account's entries in the order they were written, read after a position. The position is the
 * writing transaction and a sequence, filled by defaults (the batch writer's COPY names its
 * columns, so it writes them without a change), read below the snapshot's xmin as the event feed
 * is (libs/platform/src/pagination/commit-order-feed.ts): entries arrive in batches from every
 * API instance, and neither created_at (the request's arrival) nor a sequence is in commit order.
 *
 * Existing rows keep both columns null and stay out of the feed (no rewrite of a large table);
 * the partial index holds only the rows written from now on. Works on the table partitioned by
 * day or not: ALTER TABLE and CREATE INDEX apply to every partition, present and future.
 */
export class AddRequestLogFeed1764003250000 implements MigrationInterface {
  name = 'AddRequestLogFeed1764003250000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE request_logs ADD COLUMN feed_txid xid8, ADD COLUMN feed_seq bigint`);
    await q.query(`CREATE SEQUENCE request_logs_feed_seq OWNED BY request_logs.feed_seq`);
    await q.query(
      `ALTER TABLE request_logs ALTER COLUMN feed_txid SET DEFAULT pg_current_xact_id(), ALTER COLUMN feed_seq SET DEFAULT nextval('request_logs_feed_seq')`,
    );
    await q.query(`
      CREATE INDEX request_logs_feed ON request_logs (developer_id, mode, feed_txid, feed_seq)
        WHERE feed_txid IS NOT NULL AND developer_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX request_logs_feed`);
    await q.query(`ALTER TABLE request_logs DROP COLUMN feed_seq, DROP COLUMN feed_txid`);
  }
}
