import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test clocks (docs/test-clocks.md): one row per developer whose test mode runs ahead of real
 * time. No row means real time; live mode never has one (the CHECK keeps it so).
 */
export class CreateTestClocks1764002100000 implements MigrationInterface {
  name = 'CreateTestClocks1764002100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE test_clocks (
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode = 'test'),
        offset_seconds bigint NOT NULL CHECK (offset_seconds >= 0),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (developer_id, mode)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE test_clocks`);
  }
}
