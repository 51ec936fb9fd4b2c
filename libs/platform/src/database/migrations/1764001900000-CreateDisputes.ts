import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chargebacks (`disputes`), created once from the provider's `charge.dispute.create` callback:
 * the provider's dispute id is unique per mode, so a repeated callback finds the row instead of
 * adding one. `held_amount` is what the wallet actually reserved for it (docs/disputes.md).
 */
export class CreateDisputes1764001900000 implements MigrationInterface {
  name = 'CreateDisputes1764001900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE disputes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL UNIQUE,
        payment_id uuid NOT NULL,
        payment_reference text NOT NULL,
        amount numeric(20,2) NOT NULL CHECK (amount > 0),
        held_amount numeric(20,2) NOT NULL CHECK (held_amount >= 0 AND held_amount <= amount),
        currency text NOT NULL,
        reason text,
        status text NOT NULL CHECK (status IN ('open', 'under_review', 'won', 'lost')),
        evidence jsonb,
        submitted_at timestamptz,
        evidence_due_at timestamptz NOT NULL,
        provider_dispute_id text NOT NULL,
        resolved_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX disputes_provider_id ON disputes (mode, provider_dispute_id)`);
    await q.query(`CREATE INDEX disputes_listing ON disputes (developer_id, mode, created_at DESC, id DESC)`);
    // The deadline scan's work: open disputes by their deadline.
    await q.query(`CREATE INDEX disputes_open_due ON disputes (evidence_due_at) WHERE status = 'open'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE disputes`);
  }
}
