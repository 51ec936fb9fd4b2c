import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A list filter that matches few or no rows must not walk the whole account. Every list reads one
 * account newest first through its (developer_id, mode, created_at DESC, id DESC) index; a filter
 * on another column then reads the account's rows until it has found a page — all of them when
 * nothing matches (`?currency=USD` in an NGN account: ~100 ms per million payments).
 *
 * Each index below leads with the tenant and the filtered column, then the list's order, so a
 * filter reads exactly its page whatever the account's size. A filter some index already serves
 * gets none (a write pays for every index):
 * - payments by customer: payments_customer_listing; customers by e-mail: customers_email_per_tenant;
 * - wallet entries by currency: ledger_entries_listing; request logs by request id: the key;
 * - from/to on created_at: the listing index itself (not the wallet list, ordered by seq: see
 *   docs/benchmarks.md, "List filters on a big account");
 * - settlements (a few per account and day) and plans (a merchant's catalogue) stay small;
 * - refunds by status and customers by date: only exports ask, reading a whole date range anyway.
 */
/** `<table>_<label>_listing`: one account's rows with this `column` value, newest first (the lists' keyset order). */
function filtered(table: string, column: string, label = column): { name: string; definition: string } {
  return { name: `${table}_${label}_listing`, definition: `${table} (developer_id, mode, ${column}, created_at DESC, id DESC)` };
}

const INDEXES: Array<{ name: string; definition: string }> = [
  filtered('payments', 'status'),
  filtered('payments', 'currency'),
  filtered('refunds', 'payment_reference', 'payment'),
  // The wallet list reads each currency's range and merges them (ledger.repository listWalletEntries).
  { name: 'ledger_entries_type_listing', definition: 'ledger_entries (developer_id, mode, account, currency, entry_type, seq DESC)' },
  { name: 'ledger_entries_reference', definition: 'ledger_entries (developer_id, mode, reference)' },
  // Failed attempts are a small share of the log: the account's failures, newest first.
  { name: 'webhook_delivery_logs_failed_listing', definition: 'webhook_delivery_logs (developer_id, mode, created_at DESC, id DESC) WHERE success = false' },
  filtered('transfers', 'status'),
  filtered('transfers', 'currency'),
  // A recipient belongs to one account: its id alone finds its transfers.
  { name: 'transfers_recipient_listing', definition: 'transfers (recipient_id, created_at DESC, id DESC)' },
  filtered('disputes', 'status'),
  filtered('virtual_accounts', 'status'),
  filtered('virtual_accounts', 'customer_reference', 'customer'),
  filtered('subscriptions', 'status'),
  filtered('subscriptions', 'plan_public_id', 'plan'),
  filtered('subscriptions', 'customer_reference', 'customer'),
  filtered('invoices', 'status'),
  filtered('invoices', 'customer_reference', 'customer'),
  // due_from/due_to: a range of due dates, then sorted (the list's order is created_at).
  { name: 'invoices_due_date', definition: 'invoices (developer_id, mode, due_date)' },
  // request_logs is partitioned by day: each index below is one per day partition, present and future.
  {
    name: 'request_logs_status_listing',
    definition: 'request_logs (developer_id, mode, status_code, created_at DESC, id DESC) WHERE developer_id IS NOT NULL',
  },
  // `?path=` matches any part of the path (ILIKE '%…%'): only a trigram index finds that without reading every row.
  { name: 'request_logs_path_trgm', definition: 'request_logs USING gin (path gin_trgm_ops)' },
];

export class IndexListFilters1764003300000 implements MigrationInterface {
  name = 'IndexListFilters1764003300000';

  async up(q: QueryRunner): Promise<void> {
    for (const { name, definition } of INDEXES) await q.query(`CREATE INDEX ${name} ON ${definition}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { name } of [...INDEXES].reverse()) await q.query(`DROP INDEX ${name}`);
  }
}
