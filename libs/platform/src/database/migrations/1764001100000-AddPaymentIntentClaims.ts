import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment intents move through claims, so that no provider call runs inside a transaction and no
 * status claims more than has happened:
 * - `holding`: the row (and its `PI-` reference) is saved before the hold is asked for, so a retry
 *   of the create — same Idempotency-Key, kept in `idempotency_key` with the request's
 *   `request_hash` — asks again under the same reference instead of placing a second hold;
 * - `capturing`: a capture of `capture_amount` was claimed (a cancel or another amount is refused)
 *   and is being asked of the provider; a timeout leaves the claim for a retry to resume;
 * - `succeeded` is set only by the trigger below, inside the transaction that moves the capture's
 *   payment to `success` — the one that posts the ledger credit and `payment.success` — whichever
 *   path confirms it (the capture's answer, a retry, verify, or the provider's callback);
 * - `released_at`: when the provider released the hold of a canceled or expired intent; null there
 *   means a release is still owed, and the upkeep scan retries it.
 */
export class AddPaymentIntentClaims1764001100000 implements MigrationInterface {
  name = 'AddPaymentIntentClaims1764001100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_status_check`);
    await q.query(`
      ALTER TABLE payment_intents
        ADD CONSTRAINT payment_intents_status_check CHECK (status IN ('holding', 'requires_capture', 'capturing', 'succeeded', 'canceled', 'expired')),
        ADD COLUMN idempotency_key text,
        ADD COLUMN request_hash text,
        ADD COLUMN capture_amount numeric(20,2) CHECK (capture_amount > 0 AND capture_amount <= amount),
        ADD COLUMN capture_started_at timestamptz,
        ADD COLUMN released_at timestamptz`);
    // Releases of intents already final were attempted by the code before this one.
    await q.query(`UPDATE payment_intents SET released_at = updated_at WHERE status IN ('canceled', 'expired')`);
    await q.query(`CREATE UNIQUE INDEX payment_intents_idempotency_key ON payment_intents (developer_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`
      CREATE INDEX payment_intents_upkeep ON payment_intents (updated_at)
        WHERE status IN ('holding', 'capturing') OR (status IN ('canceled', 'expired') AND released_at IS NULL)`);
    await q.query(`
      CREATE FUNCTION payment_intent_captured() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE payment_intents
           SET status = 'succeeded', captured_amount = NEW.amount, payment_id = NEW.id, updated_at = NEW.updated_at
         WHERE reference = NEW.reference AND developer_id = NEW.developer_id AND mode = NEW.mode AND status = 'capturing';
        RETURN NULL;
      END $$`);
    // Only capture payments carry a PI- reference, so other payments never run the function.
    await q.query(`
      CREATE TRIGGER payments_success_completes_intent_capture
        AFTER UPDATE OF status ON payments
        FOR EACH ROW WHEN (NEW.status = 'success' AND OLD.status <> 'success' AND NEW.reference LIKE 'PI-%')
        EXECUTE FUNCTION payment_intent_captured()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER payments_success_completes_intent_capture ON payments`);
    await q.query(`DROP FUNCTION payment_intent_captured()`);
    await q.query(`DROP INDEX payment_intents_upkeep`);
    await q.query(`DROP INDEX payment_intents_idempotency_key`);
    // Claims in flight fall back to the statuses the earlier code knew.
    await q.query(`UPDATE payment_intents SET status = 'requires_capture' WHERE status = 'capturing'`);
    await q.query(`DELETE FROM payment_intents WHERE status = 'holding'`);
    await q.query(`ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_status_check`);
    await q.query(`
      ALTER TABLE payment_intents
        DROP COLUMN idempotency_key, DROP COLUMN request_hash, DROP COLUMN capture_amount, DROP COLUMN capture_started_at, DROP COLUMN released_at,
        ADD CONSTRAINT payment_intents_status_check CHECK (status IN ('requires_capture', 'succeeded', 'canceled', 'expired'))`);
  }
}
