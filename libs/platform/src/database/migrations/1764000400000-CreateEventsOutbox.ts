import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEventsOutbox1764000400000 implements MigrationInterface {
  name = 'CreateEventsOutbox1764000400000';

  async up(q: QueryRunner): Promise<void> {
    // The outbox: written in the transaction of the change that caused the event.
    await q.query(`
      CREATE TABLE events (
        id text PRIMARY KEY CHECK (id LIKE 'evt\\_%'),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        name text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX events_listing ON events (developer_id, mode, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE events`);
  }
}
