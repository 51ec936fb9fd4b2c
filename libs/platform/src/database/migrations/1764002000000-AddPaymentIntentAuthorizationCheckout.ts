import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holds for customers with no saved card: the intent is `requires_action` until the customer
 * authorizes the hold on the provider's authorize-only checkout, so it has no card yet
 * (`authorization_id` null until then — required again from `requires_capture` on) and keeps
 * the provider's checkout URL (`provider_authorization_url`, never on the wire: the merchant gets
 * the gateway's `/checkout/holds/{reference}`, which redirects there).
 */
export class AddPaymentIntentAuthorizationCheckout1764002000000 implements MigrationInterface {
  name = 'AddPaymentIntentAuthorizationCheckout1764002000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_status_check`);
    await q.query(`
      ALTER TABLE payment_intents
        ADD CONSTRAINT payment_intents_status_check
          CHECK (status IN ('holding', 'requires_action', 'requires_capture', 'capturing', 'succeeded', 'canceled', 'expired')),
        ALTER COLUMN authorization_id DROP NOT NULL,
        ADD COLUMN provider_authorization_url text,
        ADD CONSTRAINT payment_intents_card_when_held
          CHECK (authorization_id IS NOT NULL OR status IN ('holding', 'requires_action', 'canceled', 'expired'))`);
    // The upkeep scan looks for intents awaiting their customer (to verify them, or let them lapse).
    await q.query(`CREATE INDEX payment_intents_awaiting_action ON payment_intents (updated_at) WHERE status = 'requires_action'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payment_intents_awaiting_action`);
    // Intents that never had a card cannot exist in the earlier schema.
    await q.query(`DELETE FROM payment_intents WHERE authorization_id IS NULL`);
    await q.query(`ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_card_when_held, DROP CONSTRAINT payment_intents_status_check`);
    await q.query(`
      ALTER TABLE payment_intents
        DROP COLUMN provider_authorization_url,
        ALTER COLUMN authorization_id SET NOT NULL,
        ADD CONSTRAINT payment_intents_status_check CHECK (status IN ('holding', 'requires_capture', 'capturing', 'succeeded', 'canceled', 'expired'))`);
  }
}
