import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wallets and the double-entry ledger (docs/ledger.md).
 *
 * - A wallet's balance is spread over 16 slot rows so concurrent credits to one busy merchant do
 *   not queue behind one row; debits lock all slots in slot order.
 * - Postings and entries are append-only: triggers refuse UPDATE, DELETE and TRUNCATE.
 * - `ledger_invariant_violations` lists every broken invariant; empty means the books agree.
 */
export class CreateWalletsAndLedger1764000500000 implements MigrationInterface {
  name = 'CreateWalletsAndLedger1764000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT wallets_one_per_tenant_currency UNIQUE (developer_id, mode, currency)
      )`);

    await q.query(`
      CREATE TABLE wallet_balance_slots (
        wallet_id uuid NOT NULL REFERENCES wallets (id),
        slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 15),
        available numeric(20,2) NOT NULL DEFAULT 0 CHECK (available >= 0),
        pending numeric(20,2) NOT NULL DEFAULT 0 CHECK (pending >= 0),
        reserved numeric(20,2) NOT NULL DEFAULT 0 CHECK (reserved >= 0),
        PRIMARY KEY (wallet_id, slot)
      )`);

    await q.query(`
      CREATE TABLE ledger_postings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        source_type text NOT NULL CHECK (source_type <> ''),
        source_id text NOT NULL CHECK (source_id <> ''),
        kind text NOT NULL CHECK (kind <> ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_postings_once_per_source UNIQUE (developer_id, mode, source_type, source_id, kind)
      )`);

    // seq: a monotonically increasing position for stable keyset pagination (ids are random).
    await q.query(`
      CREATE TABLE ledger_entries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        posting_id uuid NOT NULL REFERENCES ledger_postings (id),
        developer_id uuid NOT NULL REFERENCES developers (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        currency text NOT NULL CHECK (currency IN ('NGN', 'USD', 'GBP', 'KES')),
        account text NOT NULL CHECK (account ~ '^[a-z_]+(:[A-Za-z0-9_.-]+)?$'),
        bucket text CHECK (bucket IN ('available', 'pending', 'reserved')),
        entry_type text NOT NULL CHECK (entry_type IN ('credit', 'debit', 'fee', 'settlement', 'virtual_account_credit')),
        amount numeric(20,2) NOT NULL CHECK (amount <> 0),
        reference text NOT NULL,
        description text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_entries_bucket_only_on_wallet CHECK ((account = 'wallet') = (bucket IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ledger_entries_listing ON ledger_entries (developer_id, mode, account, currency, seq DESC)`);
    await q.query(`CREATE INDEX ledger_entries_posting ON ledger_entries (posting_id)`);

    await q.query(`
      CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the ledger is append-only: % on % is refused; post a correcting entry instead', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'integrity_constraint_violation';
      END
      $$`);
    for (const table of ['ledger_entries', 'ledger_postings']) {
      await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`);
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`);
    }

    await q.query(`
      CREATE VIEW ledger_invariant_violations AS
      WITH wallet_entry_sums AS (
        SELECT developer_id, mode, currency, bucket, sum(amount) AS total
        FROM ledger_entries WHERE account = 'wallet'
        GROUP BY developer_id, mode, currency, bucket
      ),
      slot_sums AS (
        SELECT w.developer_id, w.mode, w.currency, b.bucket,
               sum(CASE b.bucket WHEN 'available' THEN s.available WHEN 'pending' THEN s.pending ELSE s.reserved END) AS total
        FROM wallets w
        JOIN wallet_balance_slots s ON s.wallet_id = w.id
        CROSS JOIN (VALUES ('available'), ('pending'), ('reserved')) AS b (bucket)
        GROUP BY w.developer_id, w.mode, w.currency, b.bucket
      )
      SELECT 'wallet_balance_mismatch'::text AS violation,
             coalesce(e.developer_id, s.developer_id) AS developer_id,
             coalesce(e.mode, s.mode) AS mode,
             coalesce(e.currency, s.currency) AS currency,
             coalesce(e.bucket, s.bucket) AS subject,
             format('entries sum to %s, slots to %s', coalesce(e.total, 0), coalesce(s.total, 0)) AS detail
      FROM wallet_entry_sums e
      FULL JOIN slot_sums s USING (developer_id, mode, currency, bucket)
      WHERE coalesce(e.total, 0) <> coalesce(s.total, 0)
      UNION ALL
      SELECT 'posting_unbalanced', p.developer_id, p.mode, p.currency, p.id::text,
             format('%s lines sum to %s', count(e.id), coalesce(sum(e.amount), 0))
      FROM ledger_postings p
      LEFT JOIN ledger_entries e ON e.posting_id = p.id
      GROUP BY p.id
      HAVING count(e.id) = 0 OR sum(e.amount) <> 0
      UNION ALL
      SELECT 'entry_outside_its_posting', e.developer_id, e.mode, e.currency, e.id::text,
             'entry tenant or currency differs from its posting'
      FROM ledger_entries e
      JOIN ledger_postings p ON p.id = e.posting_id
      WHERE (e.developer_id, e.mode, e.currency) IS DISTINCT FROM (p.developer_id, p.mode, p.currency)
      UNION ALL
      SELECT 'slot_below_zero', w.developer_id, w.mode, w.currency, w.id::text || '/' || s.slot,
             format('available %s, pending %s, reserved %s', s.available, s.pending, s.reserved)
      FROM wallet_balance_slots s
      JOIN wallets w ON w.id = s.wallet_id
      WHERE s.available < 0 OR s.pending < 0 OR s.reserved < 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW ledger_invariant_violations`);
    await q.query(`DROP TABLE ledger_entries`);
    await q.query(`DROP TABLE ledger_postings`);
    await q.query(`DROP FUNCTION ledger_refuse_change()`);
    await q.query(`DROP TABLE wallet_balance_slots`);
    await q.query(`DROP TABLE wallets`);
  }
}
