import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each claim of a batch item gets a token of its own: a worker writes the item's result only while
 * the claim is still its own, so a worker that was slow past the claim timeout (its item taken over
 * by another) cannot overwrite the newer result.
 */
export class AddPaymentBatchItemClaimToken1764001120000 implements MigrationInterface {
  name = 'AddPaymentBatchItemClaimToken1764001120000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_batch_items ADD COLUMN claim_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_batch_items DROP COLUMN claim_token`);
  }
}
