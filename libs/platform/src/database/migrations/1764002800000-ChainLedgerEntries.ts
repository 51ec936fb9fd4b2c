import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hash-chained ledger (docs/ledger.md, "The hash chain"), and the API request behind each posting.
 *
 * - A wallet's history is 16 interleaved chains, one per balance slot: every entry records its
 *   chain (`chain_slot`), the hash of the entry before it in that chain (`prev_hash`, NULL for the
 *   first) and its own `hash`; the slot row keeps the hash of its chain's last entry
 *   (`last_entry_hash`). A posting appends to a slot it already holds locked, so credits to one
 *   wallet still never wait for each other.
 * - `ledger_entry_hash(…)` is the one SQL definition of an entry's hash (SHA-256 over netstrings
 *   of its fields); both posting statements (through `ledger_chain_lines`) and the backfill call
 *   it, and the API's verifier recomputes it independently in TypeScript.
 * - Existing entries are chained in place: each wallet's entries, in `seq` order, become its chain
 *   0; a wallet that only had postings between system accounts is created first.
 * - `ledger_postings.request_id`: the `X-Request-Id` of the API request that made the posting
 *   (NULL for work outside a request and for postings made before this column existed).
 */
export class ChainLedgerEntries1764002800000 implements MigrationInterface {
  name = 'ChainLedgerEntries1764002800000';

  async up(q: QueryRunner): Promise<void> {
    // A netstring (`<byte length>:<bytes>,`): fields framed this way cannot run into each other.
    await q.query(`
      CREATE FUNCTION ledger_netstring(value text) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT convert_to(octet_length(convert_to(value, 'UTF8'))::text || ':', 'UTF8') || convert_to(value, 'UTF8') || '\\x2c'::bytea
      $$`);
    // Values are hashed as stored: the amount as numeric(20,2) prints it, the time as UTC
    // microseconds since the epoch, a missing bucket or previous hash as the empty string.
    await q.query(`
      CREATE FUNCTION ledger_entry_hash(
        entry_id uuid, posting_id uuid, developer_id uuid, mode text, currency text, chain_slot integer,
        source_type text, source_id text, kind text, account text, bucket text, entry_type text,
        amount numeric, reference text, description text, created_at timestamptz, prev_hash bytea
      ) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT sha256(
          ledger_netstring('gateway-ledger-entry-v1') || ledger_netstring(entry_id::text) || ledger_netstring(posting_id::text) ||
          ledger_netstring(developer_id::text) || ledger_netstring(mode) || ledger_netstring(currency) || ledger_netstring(chain_slot::text) ||
          ledger_netstring(source_type) || ledger_netstring(source_id) || ledger_netstring(kind) ||
          ledger_netstring(account) || ledger_netstring(coalesce(bucket, '')) || ledger_netstring(entry_type) ||
          ledger_netstring(amount::numeric(20,2)::text) || ledger_netstring(reference) || ledger_netstring(description) ||
          ledger_netstring((extract(epoch FROM created_at) * 1000000)::bigint::text) || ledger_netstring(coalesce(encode(prev_hash, 'hex'), ''))
        )
      $$`);

    // A posting's lines, hashed in line order onto a chain whose last hash is `head`: each line's
    // entry id, previous hash and hash, for the posting statement to insert. One PL/pgSQL call per
    // posting keeps that statement as cheap to plan as before the chain (its expressions are
    // planned once per session), where a recursive CTE over the lines roughly doubled its cost.
    await q.query(`
      CREATE FUNCTION ledger_chain_lines(
        head bytea, posting_id uuid, developer_id uuid, mode text, currency text, chain_slot integer,
        source_type text, source_id text, kind text, reference text, created_at timestamptz,
        accounts text[], buckets text[], entry_types text[], amounts numeric[], descriptions text[]
      ) RETURNS TABLE (n integer, id uuid, account text, bucket text, entry_type text, amount numeric, description text, prev_hash bytea, hash bytea)
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        hash := head;
        FOR i IN 1 .. coalesce(array_length(accounts, 1), 0) LOOP
          n := i;
          id := gen_random_uuid();
          account := accounts[i];
          bucket := buckets[i];
          entry_type := entry_types[i];
          amount := amounts[i];
          description := descriptions[i];
          prev_hash := hash;
          hash := ledger_entry_hash(id, posting_id, developer_id, mode, currency, chain_slot, source_type, source_id, kind,
                                    account, bucket, entry_type, amount, reference, description, created_at, prev_hash);
          RETURN NEXT;
        END LOOP;
      END
      $$`);

    await q.query(`ALTER TABLE wallet_balance_slots ADD COLUMN last_entry_hash bytea CHECK (octet_length(last_entry_hash) = 32)`);
    await q.query(`
      ALTER TABLE ledger_entries
        ADD COLUMN chain_slot smallint CHECK (chain_slot BETWEEN 0 AND 15),
        ADD COLUMN prev_hash bytea CHECK (octet_length(prev_hash) = 32),
        ADD COLUMN hash bytea CHECK (octet_length(hash) = 32)`);
    await q.query(`ALTER TABLE ledger_postings ADD COLUMN request_id text`);

    // Every posting belongs to a wallet's chain, even one between system accounts only.
    await q.query(`
      WITH created AS (
        INSERT INTO wallets (developer_id, mode, currency)
        SELECT DISTINCT developer_id, mode, currency FROM ledger_postings
        ON CONFLICT (developer_id, mode, currency) DO NOTHING RETURNING id
      )
      INSERT INTO wallet_balance_slots (wallet_id, slot) SELECT created.id, slot FROM created, generate_series(0, 15) AS slot`);

    await this.chainExistingEntries(q);

    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN chain_slot SET NOT NULL, ALTER COLUMN hash SET NOT NULL`);
    // Verification walks one wallet's chains in order.
    await q.query(`CREATE INDEX ledger_entries_chain ON ledger_entries (developer_id, mode, currency, chain_slot, seq)`);
    // The request trace reads the postings one request made.
    await q.query(`CREATE INDEX ledger_postings_request ON ledger_postings (developer_id, mode, request_id) WHERE request_id IS NOT NULL`);
  }

  /**
   * Each wallet's existing entries, in seq order, become its chain 0. The hashes are sequential
   * (each takes the one before), so one ordered pass computes them into a scratch table and one
   * UPDATE writes them; the append-only trigger steps aside for that UPDATE only.
   */
  private async chainExistingEntries(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TEMPORARY TABLE ledger_chain_backfill (id uuid PRIMARY KEY, prev_hash bytea, hash bytea NOT NULL)`);
    await q.query(`
      DO $$
      DECLARE
        e record;
        wallet_of_prev text := NULL;
        prev bytea := NULL;
        next bytea;
      BEGIN
        FOR e IN
          SELECT le.*, p.source_type, p.source_id, p.kind
          FROM ledger_entries le JOIN ledger_postings p ON p.id = le.posting_id
          ORDER BY le.developer_id, le.mode, le.currency, le.seq
        LOOP
          IF wallet_of_prev IS DISTINCT FROM e.developer_id || '/' || e.mode || '/' || e.currency THEN
            prev := NULL;
            wallet_of_prev := e.developer_id || '/' || e.mode || '/' || e.currency;
          END IF;
          next := ledger_entry_hash(e.id, e.posting_id, e.developer_id, e.mode, e.currency, 0, e.source_type, e.source_id, e.kind,
                                    e.account, e.bucket, e.entry_type, e.amount, e.reference, e.description, e.created_at, prev);
          INSERT INTO ledger_chain_backfill (id, prev_hash, hash) VALUES (e.id, prev, next);
          prev := next;
        END LOOP;
      END
      $$`);
    await q.query(`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`);
    await q.query(`UPDATE ledger_entries e SET chain_slot = 0, prev_hash = b.prev_hash, hash = b.hash FROM ledger_chain_backfill b WHERE b.id = e.id`);
    await q.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
    // Slot 0 of each wallet remembers its chain's last entry.
    await q.query(`
      UPDATE wallet_balance_slots s SET last_entry_hash = last.hash
      FROM (
        SELECT DISTINCT ON (developer_id, mode, currency) developer_id, mode, currency, hash
        FROM ledger_entries ORDER BY developer_id, mode, currency, seq DESC
      ) AS last
      JOIN wallets w USING (developer_id, mode, currency)
      WHERE s.wallet_id = w.id AND s.slot = 0`);
    await q.query(`DROP TABLE ledger_chain_backfill`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_postings_request`);
    await q.query(`ALTER TABLE ledger_postings DROP COLUMN request_id`);
    await q.query(`DROP INDEX ledger_entries_chain`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN chain_slot, DROP COLUMN prev_hash, DROP COLUMN hash`);
    await q.query(`ALTER TABLE wallet_balance_slots DROP COLUMN last_entry_hash`);
    await q.query(`DROP FUNCTION ledger_chain_lines(bytea, uuid, uuid, text, text, integer, text, text, text, text, timestamptz, text[], text[], text[], numeric[], text[])`);
    await q.query(`DROP FUNCTION ledger_entry_hash(uuid, uuid, uuid, text, text, integer, text, text, text, text, text, text, numeric, text, text, timestamptz, bytea)`);
    await q.query(`DROP FUNCTION ledger_netstring(text)`);
  }
}
