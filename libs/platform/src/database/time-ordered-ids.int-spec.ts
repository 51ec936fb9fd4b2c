import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source';

/** The milliseconds a version-7 UUID carries in its first 48 bits. */
function millisecondsOf(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

/**
 * The ids the database makes grow with time (migration OrderNewIdsByTime), so each new row's key
 * goes at the right edge of its primary key instead of into a random page of it.
 */
describe('ids the database makes', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL as string, { size: 1 })).initialize();
  });
  afterAll(() => db?.destroy());

  it('are version-7 UUIDs of the RFC variant, carrying the time they were made in milliseconds, each one distinct', async () => {
    const before = Date.now();
    const rows = (await db.query(`SELECT time_ordered_uuid()::text AS id FROM generate_series(1, 1000)`)) as Array<{ id: string }>;
    const after = Date.now();
    const ids = rows.map((row) => row.id);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The database's clock and this process's are the same machine's.
      expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before - 1_000);
      expect(millisecondsOf(id)).toBeLessThanOrEqual(after + 1_000);
    }
  });

  it('sort in the order they were made, a millisecond apart or more', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [{ id }] = (await db.query(`SELECT time_ordered_uuid()::text AS id, pg_sleep(0.002)`)) as Array<{ id: string }>;
      ids.push(id);
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('are the default of every table whose id the database makes, but the request log (no index on its id)', async () => {
    const random = (await db.query(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'id' AND column_default = 'gen_random_uuid()'
        ORDER BY table_name`,
    )) as Array<{ table_name: string }>;
    expect(random.map((row) => row.table_name).filter((table) => !table.startsWith('request_logs'))).toEqual([]);
    const defaults = (await db.query(
      `SELECT table_name, column_default FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'id' AND table_name IN ('payments', 'ledger_entries') ORDER BY table_name`,
    )) as Array<{ table_name: string; column_default: string }>;
    expect(defaults).toEqual([
      { table_name: 'ledger_entries', column_default: 'time_ordered_uuid()' },
      { table_name: 'payments', column_default: 'time_ordered_uuid()' },
    ]);
  });

  it('include the ledger entries the hash chain makes (migration OrderLedgerEntryIdsByTime), each hashed with the id it carries', async () => {
    const before = Date.now();
    const lines = (await db.query(
      `SELECT c.n, c.id::text AS id, c.hash = ledger_entry_hash(c.id, '00000000-0000-7000-8000-000000000001', '00000000-0000-7000-8000-000000000002',
                'test', 'NGN', 3, 'payment', 'pay_1', 'payment_succeeded', c.account, c.bucket, c.entry_type, c.amount, 'PAY-1',
                c.description, '2026-12-07T00:00:00Z', c.prev_hash) AS hash_matches
         FROM ledger_chain_lines(NULL, '00000000-0000-7000-8000-000000000001', '00000000-0000-7000-8000-000000000002', 'test', 'NGN', 3,
                'payment', 'pay_1', 'payment_succeeded', 'PAY-1', '2026-12-07T00:00:00Z',
                ARRAY['provider_clearing', 'wallet', 'wallet', 'fees'], ARRAY[NULL, 'available', 'available', NULL],
                ARRAY['debit', 'credit', 'fee', 'fee'], ARRAY[-100, 100, -1.5, 1.5]::numeric[], ARRAY['a', 'b', 'c', 'd']) AS c
        ORDER BY c.n`,
    )) as Array<{ n: number; id: string; hash_matches: boolean }>;
    const after = Date.now();
    expect(lines.map((line) => line.hash_matches)).toEqual([true, true, true, true]);
    for (const { id } of lines) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before - 1_000);
      expect(millisecondsOf(id)).toBeLessThanOrEqual(after + 1_000);
    }
  });
});
