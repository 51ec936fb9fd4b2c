import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One name for the hash of the request an idempotency key was first used for: `request_hash`, as
 * idempotency keys, payment intents and refunds already call it. PostgreSQL carries the column's
 * CHECK constraint over to the new name.
 */
export class RenamePaymentRequestFingerprint1764001400000 implements MigrationInterface {
  name = 'RenamePaymentRequestFingerprint1764001400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments RENAME COLUMN request_fingerprint TO request_hash`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments RENAME COLUMN request_hash TO request_fingerprint`);
  }
}
