import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexesOnline, type OnlineIndex, removeIndexesOnline } from './online-index';

/**
 * The wallet list's indexes hold wallet lines only. Every statement that reads them asks for
 * `account = 'wallet'` (LedgerRepository: the wallet list and its filters, a request's wallet
 * entries), yet each system line (provider clearing, platform and provider fees, bank settlements,
 * sub-accounts) was written into them too: half of a payment's six lines, so 12 index entries of
 * every success that no statement ever read. Partial on the account, they leave the column out of
 * their keys. The chain's index (ledger_entries_chain) keeps every line: the verifier walks all
 * accounts.
 *
 * The time range's GiST index (IndexWalletEntriesByTime) gains the entry type before the time: a
 * type with a wide range (`type=debit&from=` a year back) read the range's entries nearest first
 * and kept the type's, every entry of the year when the type has few or none (0.9 s and 4.3 s at
 * 10,000,000 entries, docs/benchmarks.md). With the type in it a scan skips the other types'
 * subtrees; a range alone visits each type's subtrees of the range, a few more pages.
 *
 * Online, so it runs outside a transaction: each new index is built CONCURRENTLY before the one it
 * replaces is dropped, and writes go on meanwhile.
 */
const WALLET = `WHERE account = 'wallet'`;

const INDEXES: OnlineIndex[] = [
  {
    name: 'ledger_entries_wallet_listing',
    definition: `ledger_entries (developer_id, mode, currency, seq DESC) ${WALLET}`,
    replaces: { name: 'ledger_entries_listing', definition: 'ledger_entries (developer_id, mode, account, currency, seq DESC)' },
  },
  {
    name: 'ledger_entries_wallet_type_listing',
    definition: `ledger_entries (developer_id, mode, currency, entry_type, seq DESC) ${WALLET}`,
    replaces: { name: 'ledger_entries_type_listing', definition: 'ledger_entries (developer_id, mode, account, currency, entry_type, seq DESC)' },
  },
  {
    name: 'ledger_entries_wallet_reference',
    definition: `ledger_entries (developer_id, mode, reference) ${WALLET}`,
    replaces: { name: 'ledger_entries_reference', definition: 'ledger_entries (developer_id, mode, reference)' },
  },
  {
    // A request's wallet entries, found from its postings (walletEntriesOfRequest). Postings are
    // never deleted, so no foreign-key check needs every line by posting.
    name: 'ledger_entries_wallet_posting',
    definition: `ledger_entries (posting_id) ${WALLET}`,
    replaces: { name: 'ledger_entries_posting', definition: 'ledger_entries (posting_id)' },
  },
  {
    name: 'ledger_entries_wallet_type_time',
    definition: `ledger_entries USING gist (developer_id, mode, currency, entry_type, created_at, seq) ${WALLET}`,
    replaces: { name: 'ledger_entries_wallet_time', definition: `ledger_entries USING gist (developer_id, mode, currency, created_at, seq) ${WALLET}` },
  },
];

export class IndexWalletLinesOnly1764003900000 implements MigrationInterface {
  name = 'IndexWalletLinesOnly1764003900000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildIndexesOnline(q, INDEXES);
  }

  async down(q: QueryRunner): Promise<void> {
    await removeIndexesOnline(q, INDEXES);
  }
}
