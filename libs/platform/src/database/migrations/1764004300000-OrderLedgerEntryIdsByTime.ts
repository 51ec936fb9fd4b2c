import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger entries' ids grow with time, as every other id the database makes does since
 * OrderNewIdsByTime: a success posts six entries, and with random ids each went into a random
 * page of `ledger_entries_pkey`, the largest primary key a busy account has after its request log.
 *
 * The ids are made by `ledger_chain_lines` (migration ChainLedgerEntries), inside the hash chain,
 * because each entry's hash covers its id. The function is replaced with the same body but for
 * the id's generator; the hash's definition (`ledger_entry_hash`) does not change, so existing
 * entries verify as before and new ones verify the same way. The column's default follows, for
 * any entry written without the function. Existing entries keep their ids.
 */
export class OrderLedgerEntryIdsByTime1764004300000 implements MigrationInterface {
  name = 'OrderLedgerEntryIdsByTime1764004300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(chainLinesFunction('time_ordered_uuid()'));
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN id SET DEFAULT time_ordered_uuid()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    await q.query(chainLinesFunction('gen_random_uuid()'));
  }
}

/** ledger_chain_lines as ChainLedgerEntries defined it, each line's id made by `newId`. */
function chainLinesFunction(newId: 'time_ordered_uuid()' | 'gen_random_uuid()'): string {
  return `
    CREATE OR REPLACE FUNCTION ledger_chain_lines(
      head bytea, posting_id uuid, developer_id uuid, mode text, currency text, chain_slot integer,
      source_type text, source_id text, kind text, reference text, created_at timestamptz,
      accounts text[], buckets text[], entry_types text[], amounts numeric[], descriptions text[]
    ) RETURNS TABLE (n integer, id uuid, account text, bucket text, entry_type text, amount numeric, description text, prev_hash bytea, hash bytea)
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      hash := head;
      FOR i IN 1 .. coalesce(array_length(accounts, 1), 0) LOOP
        n := i;
        id := ${newId};
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
    $$`;
}
