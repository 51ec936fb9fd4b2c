import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The same ledger entry hash, computed in about half the time: every posting hashes each of its
 * lines inside the statement that writes them (six a success), so the hash is part of every
 * payment's commit.
 *
 * ChainLedgerEntries defined `ledger_entry_hash` as the SHA-256 of the netstrings of its fields,
 * each netstring made as bytes: the field converted to UTF-8 twice (once for its length, once for
 * its bytes) and four bytea concatenations, eighteen times. Here the netstrings are made as text
 * and the whole message converted to UTF-8 once; a field's length is still its UTF-8 length. The
 * bytes hashed are the same, because converting a concatenation is concatenating the conversions,
 * so every existing entry verifies as before (ledger-chain.int-spec.ts checks the function against
 * the verifier's own definition, entry-hash.ts, over awkward values). A uuid's text is always 36
 * ASCII characters, so its length is written out. Measured in SQL, 100,000 calls: 9.5 µs a call
 * before, 4.2 µs after.
 */
/** ledger_entry_hash's signature and attributes, as ChainLedgerEntries created it: only the body changes. */
const REPLACE_ENTRY_HASH = `CREATE OR REPLACE FUNCTION ledger_entry_hash(
        entry_id uuid, posting_id uuid, developer_id uuid, mode text, currency text, chain_slot integer,
        source_type text, source_id text, kind text, account text, bucket text, entry_type text,
        amount numeric, reference text, description text, created_at timestamptz, prev_hash bytea
      ) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS`;

export class HashLedgerEntriesInOnePass1764004400000 implements MigrationInterface {
  name = 'HashLedgerEntriesInOnePass1764004400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION ledger_netstring_text(value text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT octet_length(convert_to(value, 'UTF8'))::text || ':' || value || ','
      $$`);
    await q.query(`
      ${REPLACE_ENTRY_HASH} $$
        SELECT sha256(convert_to(
          '23:gateway-ledger-entry-v1,' ||
          '36:' || entry_id::text || ',36:' || posting_id::text || ',36:' || developer_id::text || ',' ||
          ledger_netstring_text(mode) || ledger_netstring_text(currency) || ledger_netstring_text(chain_slot::text) ||
          ledger_netstring_text(source_type) || ledger_netstring_text(source_id) || ledger_netstring_text(kind) ||
          ledger_netstring_text(account) || ledger_netstring_text(coalesce(bucket, '')) || ledger_netstring_text(entry_type) ||
          ledger_netstring_text(amount::numeric(20,2)::text) || ledger_netstring_text(reference) || ledger_netstring_text(description) ||
          ledger_netstring_text((extract(epoch FROM created_at) * 1000000)::bigint::text) ||
          ledger_netstring_text(coalesce(encode(prev_hash, 'hex'), '')),
          'UTF8'))
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    // ChainLedgerEntries' definition, as it was.
    await q.query(`
      ${REPLACE_ENTRY_HASH} $$
        SELECT sha256(
          ledger_netstring('gateway-ledger-entry-v1') || ledger_netstring(entry_id::text) || ledger_netstring(posting_id::text) ||
          ledger_netstring(developer_id::text) || ledger_netstring(mode) || ledger_netstring(currency) || ledger_netstring(chain_slot::text) ||
          ledger_netstring(source_type) || ledger_netstring(source_id) || ledger_netstring(kind) ||
          ledger_netstring(account) || ledger_netstring(coalesce(bucket, '')) || ledger_netstring(entry_type) ||
          ledger_netstring(amount::numeric(20,2)::text) || ledger_netstring(reference) || ledger_netstring(description) ||
          ledger_netstring((extract(epoch FROM created_at) * 1000000)::bigint::text) || ledger_netstring(coalesce(encode(prev_hash, 'hex'), ''))
        )
      $$`);
    await q.query(`DROP FUNCTION ledger_netstring_text(text)`);
  }
}
