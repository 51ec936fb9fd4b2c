import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The wallet list's `from`/`to` without walking the account. The list is ordered by `seq` (its
 * cursor, docs/ledger.md) and filtered on `created_at`; a B-tree serves one of the two, so a range
 * a year back read every newer entry first (1.3 s per million entries, docs/benchmarks.md).
 *
 * Deriving `seq` bounds from the range with a `created_at` B-tree would be exact only if the two
 * orders agreed, and they do not: `created_at` is the application's clock, read before the posting
 * waits for its balance slots, while `seq` is drawn at the insert, so concurrent postings interleave,
 * a debit that waited on the slots gets a later `seq` than entries stamped after it, several API
 * instances have several clocks, and tests and the sandbox move the clock back and forth.
 *
 * So one GiST index over both: each node knows the range of `created_at` and of `seq` below it,
 * a scan skips the subtrees outside the time range, and `ORDER BY seq <-> <top>` (btree_gist's
 * distance, a nearest-first scan) returns the range's entries highest `seq` first, reading about
 * one page — exact whatever the clocks did. Wallet lines only, as the list shows.
 */
export class IndexWalletEntriesByTime1764003450000 implements MigrationInterface {
  name = 'IndexWalletEntriesByTime1764003450000';

  async up(q: QueryRunner): Promise<void> {
    // A trusted contrib extension (PostgreSQL 13+): the database owner may create it.
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(
      `CREATE INDEX ledger_entries_wallet_time ON ledger_entries USING gist (developer_id, mode, currency, created_at, seq) WHERE account = 'wallet'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_entries_wallet_time`);
  }
}
