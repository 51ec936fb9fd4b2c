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

  it('are the default of every table whose id the database makes, but the request log (no index on its id) and the ledger entries (ids made inside the hash chain)', async () => {
    const random = (await db.query(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'id' AND column_default = 'gen_random_uuid()'
        ORDER BY table_name`,
    )) as Array<{ table_name: string }>;
    expect(random.map((row) => row.table_name).filter((table) => !table.startsWith('request_logs'))).toEqual(['ledger_entries']);
    const [payment] = (await db.query(`SELECT column_default FROM information_schema.columns WHERE table_name = 'payments' AND column_name = 'id'`)) as Array<{
      column_default: string;
    }>;
    expect(payment.column_default).toBe('time_ordered_uuid()');
  });
});
