import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ids the database makes grow with time, as request ids do (docs/benchmarks.md, "Request ids in
 * time order"). A random id goes into a random leaf page of its primary key; once the index is
 * larger than PostgreSQL's buffers that page is seldom in memory, and after each checkpoint the
 * first change to it writes the whole page to the WAL. With 5,000,000 rows, a random `uuid` key
 * cost 1,570 bytes of WAL and 12.2 µs a row inserted, a time-ordered one 156 bytes and 2.0 µs.
 *
 * `time_ordered_uuid()` makes a version-7 UUID (RFC 9562): the first 48 bits are the milliseconds
 * since 1970 (`clock_timestamp()`, so the ids of one transaction increase too), then the version,
 * and the rest is gen_random_uuid()'s random bits and variant. PostgreSQL 15 has no such generator
 * built in (18 has `uuidv7()`). The last hex digits stay random, which the analytics slots read.
 *
 * Every table whose id the database makes takes it as its default. Existing rows keep their ids.
 * The services make the ids they choose themselves the same way, in TypeScript (timeOrderedUuid,
 * @gateway/platform). Left random: the ledger entries' ids (made by `ledger_chain_lines`, inside
 * the hash chain), and request_logs' id, which has no index.
 * A default is a catalog change: each ALTER holds its table's lock for an instant.
 */
const TABLES = [
  'api_keys', 'customers', 'developer_fee_override_changes', 'developers', 'disputes', 'idempotency_keys',
  'ip_allowlist_entries', 'ledger_postings', 'payment_authorizations', 'payment_batch_items', 'payment_batches',
  'payment_intents', 'payments', 'portal_sessions', 'portal_tokens', 'refunds', 'settlement_decisions', 'settlements',
  'subaccounts', 'transfer_batch_items', 'transfer_batches', 'transfer_recipients', 'transfers', 'users', 'wallets',
  'webhook_deliveries', 'webhook_delivery_logs', 'webhook_endpoints',
];

export class OrderNewIdsByTime1764004200000 implements MigrationInterface {
  name = 'OrderNewIdsByTime1764004200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
        SELECT encode(
          set_bit(set_bit(
            overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
            52, 1), 53, 1),
          'hex')::uuid
      $$`);
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT time_ordered_uuid()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    await q.query(`DROP FUNCTION time_ordered_uuid()`);
  }
}
