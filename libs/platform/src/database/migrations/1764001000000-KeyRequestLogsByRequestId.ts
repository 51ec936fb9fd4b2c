import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * request_logs had two unique B-tree indexes on random values (the uuid `id` primary key and
 * `request_id`), both updated on every logged request. `request_id` is unique and never null, so
 * it becomes the primary key (its existing index is promoted, not rebuilt) and the index on `id`
 * goes. `id` stays — the portal returns it and pages on (created_at, id), which the
 * developer index covers — but nothing looks a row up by `id` alone.
 */
export class KeyRequestLogsByRequestId1764001000000 implements MigrationInterface {
  name = 'KeyRequestLogsByRequestId1764001000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE request_logs DROP CONSTRAINT request_logs_pkey`);
    await q.query(`ALTER TABLE request_logs ADD CONSTRAINT request_logs_pkey PRIMARY KEY USING INDEX request_logs_request_id_key`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE request_logs DROP CONSTRAINT request_logs_pkey`);
    await q.query(`CREATE UNIQUE INDEX request_logs_request_id_key ON request_logs (request_id)`);
    await q.query(`ALTER TABLE request_logs ADD CONSTRAINT request_logs_pkey PRIMARY KEY (id)`);
  }
}
