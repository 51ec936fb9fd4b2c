import type { INestApplicationContext } from '@nestjs/common';
import { createDomainTestContext, createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type MigrationInterface } from 'typeorm';
import { type NewRequestLogEntry, toRequestLogRow } from './request-log-entry';
import { anEntry } from './request-log-entry.fixture';
import { dayPartition, weekPartition } from './request-log-partitions.repository';
import { RequestLogPartitionsService } from './request-log-partitions.service';
import { RequestLogWriter } from './request-log.writer';
import { RequestLogsModule } from './request-logs.module';
import { RequestLogsRepository } from './request-logs.repository';
import { RequestLogsService } from './request-logs.service';
import { dayAfter, type UtcDay, utcDayOf } from './utc-day';

const DAY_MS = 86_400_000;
const UPKEEP_LOCK_KEY = 7_264_002;

/**
 * request_logs partitioned by time (migration PartitionRequestLogs: a partition per UTC day; the
 * upkeep's: a partition per week) and its upkeep. The file
 * has a database of its own: the upkeep drops and creates partitions and deletes rows of every
 * account, which would pull rows from under the other test files.
 */
describe('request log partitions', () => {
  let databaseUrl: string;
  let app: INestApplicationContext;
  let writer: RequestLogWriter;
  let logs: RequestLogsService;
  let partitions: RequestLogPartitionsService;
  let db: Client;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase('request_log_partitions');
    ({ app } = await createDomainTestContext(
      [RequestLogsModule.register({ flushIntervalMs: 3_600_000, purgeBatchSize: 2, partitionLockTimeoutMs: 300 })],
      undefined,
      databaseUrl,
    ));
    writer = app.get(RequestLogWriter);
    logs = app.get(RequestLogsService);
    partitions = app.get(RequestLogPartitionsService);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  }, 60_000); // a migrated database of its own: slow on a busy machine
  afterAll(async () => {
    await db?.end();
    await app?.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  }, 60_000);

  async function store(entries: NewRequestLogEntry[]): Promise<NewRequestLogEntry[]> {
    for (const entry of entries) writer.record(entry);
    await writer.flush();
    expect(writer.pending).toBe(0);
    return entries;
  }

  /** The partition holding each request's row (absent: no row). */
  async function partitionsOf(entries: NewRequestLogEntry[]): Promise<Record<string, string>> {
    const { rows } = await db.query<{ request_id: string; partition: string }>(
      'SELECT request_id, tableoid::regclass::text AS partition FROM request_logs WHERE request_id = ANY($1)',
      [entries.map((e) => e.requestId)],
    );
    return Object.fromEntries(rows.map((r) => [r.request_id, r.partition]));
  }

  async function childTables(): Promise<string[]> {
    const { rows } = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'request_logs'::regclass ORDER BY 1`,
    );
    return rows.map((r) => r.name);
  }

  /** The migration's partition of one day. */
  const partitionOf = (day: string) => dayPartition(day as UtcDay).name;
  /** The upkeep's partition of the week (Monday to Sunday) holding the day. */
  const weekOf = (day: string) => weekPartition(day as UtcDay).name;
  const at = (day: string, time = '12:00:00.000') => new Date(`${day}T${time}Z`);

  describe('writing and reading', () => {
    const today = utcDayOf(new Date());

    it('has a partition for today and each of the next 7 days, and a default partition', async () => {
      const tables = await childTables();
      expect(tables).toContain('request_logs_default');
      for (let i = 0; i <= 7; i++) expect(tables).toContain(partitionOf(dayAfter(today, i)));
    });

    it("writes each row to its UTC day's partition, and a row of a day without one to the default partition, never refusing it", async () => {
      const [first, last, tomorrow, later] = await store([
        anEntry({ createdAt: at(today, '00:00:00.000') }),
        anEntry({ createdAt: at(today, '23:59:59.999') }),
        anEntry({ createdAt: at(dayAfter(today), '00:00:00.000') }),
        anEntry({ createdAt: at(dayAfter(today, 30)) }),
      ]);
      expect(await partitionsOf([first, last, tomorrow, later])).toEqual({
        [first.requestId]: partitionOf(today),
        [last.requestId]: partitionOf(today),
        [tomorrow.requestId]: partitionOf(dayAfter(today)),
        [later.requestId]: 'request_logs_default',
      });
    });

    it('writes a batch sent twice (its acknowledgement lost) once: the retry meets the key (request id, time) and keeps the rows there', async () => {
      const repository = app.get(RequestLogsRepository);
      const batch = [anEntry({ createdAt: at(today) }), anEntry({ createdAt: at(dayAfter(today, 40)) })].map(toRequestLogRow);
      await repository.insertBatch(batch);
      await repository.insertBatch(batch);
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs WHERE request_id = ANY($1)', [batch.map((r) => r.requestId)]);
      expect(rows[0].n).toBe(2);
    });

    it("finds a request by its id in whichever partition holds it, recent or not, and never another developer's", async () => {
      const developerId = randomUUID();
      const [inDay, inDefault, older] = await store([
        anEntry({ developerId, createdAt: new Date() }),
        anEntry({ developerId, createdAt: at(dayAfter(today, 50)) }),
        anEntry({ developerId, createdAt: new Date(Date.now() - 20 * DAY_MS) }),
      ]);
      // The older one in a week partition of its own, outside the last day that lookups try first.
      await partitions.maintain(new Date(), 90);
      expect(await partitionsOf([older])).toEqual({ [older.requestId]: weekOf(utcDayOf(older.createdAt)) });
      for (const entry of [inDay, inDefault, older]) {
        expect((await logs.search({ developerId, requestId: entry.requestId, limit: 10 })).items.map((i) => i.request_id)).toEqual([entry.requestId]);
        expect((await logs.findByRequestId({ developerId, mode: 'test' }, entry.requestId))?.request_id).toBe(entry.requestId);
        expect((await logs.search({ developerId: randomUUID(), requestId: entry.requestId, limit: 10 })).items).toEqual([]);
        expect(await logs.findByRequestId({ developerId, mode: 'live' }, entry.requestId)).toBeNull();
      }
      // The list walks every partition newest first, the default one included.
      expect((await logs.search({ developerId, limit: 10 })).items.map((i) => i.request_id)).toEqual([inDefault.requestId, inDay.requestId, older.requestId]);
    });

    it("reads the portal's list from the last day's partitions when they fill the page, and from every partition when they do not", async () => {
      const developerId = randomUUID();
      const recent = await store([0, 1, 2].map((minutes) => anEntry({ developerId, createdAt: new Date(Date.now() - minutes * 60_000) })));
      const older = await store([10, 11].map((days) => anEntry({ developerId, createdAt: new Date(Date.now() - days * DAY_MS) })));
      const queries = jest.spyOn(app.get(DataSource), 'query');
      try {
        expect((await logs.search({ developerId, limit: 2 })).items.map((i) => i.request_id)).toEqual([recent[0].requestId, recent[1].requestId]);
        expect(queries).toHaveBeenCalledTimes(1);
        queries.mockClear();
        expect((await logs.search({ developerId, limit: 10 })).items.map((i) => i.request_id)).toEqual([...recent, ...older].map((e) => e.requestId));
        expect(queries).toHaveBeenCalledTimes(2);
      } finally {
        queries.mockRestore();
      }
    });

    it("looks a request id up through the key index of each partition, not by reading the partitions", async () => {
      // Enough rows in today's partition that reading it would cost more than its index.
      await db.query(
        `INSERT INTO request_logs (request_id, created_at, duration_ms, method, path, status_code)
         SELECT 'req_fill_' || n, $1::timestamptz + n * interval '1 millisecond', 1, 'GET', '/api/v1/customers', 200 FROM generate_series(1, 50000) AS n`,
        [at(today, '00:00:00.000')],
      );
      await db.query('ANALYZE request_logs');
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT * FROM request_logs WHERE request_id = 'req_fill_7'`);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(new RegExp(`Index Scan using ${partitionOf(today)}_pkey on ${partitionOf(today)}`));
      expect(plan).not.toContain(`Seq Scan on ${partitionOf(today)}`);
    }, 30_000);
  });

  describe('upkeep', () => {
    // A Monday years ahead: the weeks it keeps and drops are apart from every row written above.
    const NOW = new Date('2031-03-10T15:00:00Z');
    const RETENTION_DAYS = 90;
    // NOW − 90 days is 2030-12-10T15:00Z: 2030-12-10, a Tuesday, is the oldest day kept, whole; its
    // week (from Monday 2030-12-09) also holds an expired day.
    const OLDEST_KEPT = '2030-12-10';
    const later = (days: number) => new Date(NOW.getTime() + days * DAY_MS);
    let oldestKept: NewRequestLogEntry;

    it('creates the weeks of today and the 7 days ahead, moves in the default partition’s rows of kept days, purges the expired ones, and drops every older partition', async () => {
      const older = (await childTables()).filter((t) => /^request_logs_[pw]\d{8}$/.test(t));
      // The rows the tests above left in the default partition (days around today, long before 2030).
      const { rows: expiring } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ONLY request_logs_default`);
      let expired: NewRequestLogEntry, ahead: NewRequestLogEntry;
      [expired, oldestKept, ahead] = await store([
        anEntry({ createdAt: at('2030-12-09', '23:59:59.999') }),
        anEntry({ createdAt: at(OLDEST_KEPT, '00:00:00.000') }),
        anEntry({ createdAt: at('2031-04-20') }),
      ]);
      expect(Object.values(await partitionsOf([expired, oldestKept, ahead]))).toEqual(['request_logs_default', 'request_logs_default', 'request_logs_default']);

      const result = await partitions.maintain(NOW, RETENTION_DAYS);

      expect(result.failures).toEqual([]);
      // 2031-03-10 to 03-17: this week and the next; then the weeks of the kept rows found in the default partition.
      expect(result.created).toEqual(['request_logs_w20301209', 'request_logs_w20310310', 'request_logs_w20310317', 'request_logs_w20310414']);
      // The expired row came along with its week, and was then deleted from it.
      expect(result.movedFromDefault).toBe(3);
      expect(result.deletedFromPartitions).toBe(1);
      expect(result.deletedFromDefault).toBe(expiring[0].n);
      expect(expiring[0].n).toBeGreaterThanOrEqual(1);
      // Every partition made before (the migration's days around today, the weeks of the tests above) is older than 2031's retention window.
      expect([...result.dropped].sort()).toEqual(older.sort());
      expect(await partitionsOf([expired, oldestKept, ahead])).toEqual({
        [oldestKept.requestId]: 'request_logs_w20301209',
        [ahead.requestId]: weekOf('2031-04-20'),
      });
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ONLY request_logs_default');
      expect(rows[0].n).toBe(0);
    });

    it('changes nothing when run again', async () => {
      expect(await partitions.maintain(NOW, RETENTION_DAYS)).toEqual({
        ran: true,
        created: [],
        dropped: [],
        movedFromDefault: 0,
        deletedFromPartitions: 0,
        deletedFromDefault: 0,
        failures: [],
      });
    });

    it('deletes the rows of each day of the oldest week once the whole day has expired, and drops the week once all its days have', async () => {
      const [next] = await store([anEntry({ createdAt: at('2030-12-11', '08:00:00.000') })]);
      expect(await partitionsOf([next])).toEqual({ [next.requestId]: 'request_logs_w20301209' });

      // Still within the last kept day's hours: nothing goes.
      expect(await partitions.maintain(new Date('2031-03-10T23:59:59Z'), RETENTION_DAYS)).toMatchObject({ dropped: [], deletedFromPartitions: 0 });
      const dayLater = await partitions.maintain(later(1), RETENTION_DAYS);
      expect(dayLater).toMatchObject({ created: [], dropped: [], deletedFromPartitions: 1, failures: [] });
      expect(await partitionsOf([oldestKept, next])).toEqual({ [next.requestId]: 'request_logs_w20301209' });

      // 2031-03-16: 2030-12-15, the week's Sunday, has expired too.
      const weekLater = await partitions.maintain(later(6), RETENTION_DAYS);
      expect(weekLater).toMatchObject({ created: [], dropped: ['request_logs_w20301209'], deletedFromPartitions: 0, failures: [] });
      expect(await childTables()).not.toContain('request_logs_w20301209');
      expect(await partitionsOf([next])).toEqual({});
    });

    it('makes a day’s partition instead of its week’s when another partition already covers part of that week', async () => {
      // The migration's layout: days. Here a day in the week of 2031-05-05 has one of its own.
      await db.query(`CREATE TABLE request_logs_p20310507 PARTITION OF request_logs FOR VALUES FROM ('2031-05-07T00:00:00Z') TO ('2031-05-08T00:00:00Z')`);
      const [before, after] = await store([anEntry({ createdAt: at('2031-05-06') }), anEntry({ createdAt: at('2031-05-09') })]);
      const result = await partitions.maintain(NOW, RETENTION_DAYS);
      expect(result).toMatchObject({ created: ['request_logs_p20310506', 'request_logs_p20310509'], movedFromDefault: 2, failures: [] });
      expect(await partitionsOf([before, after])).toEqual({ [before.requestId]: 'request_logs_p20310506', [after.requestId]: 'request_logs_p20310509' });
    });

    it('lets one scheduler do the upkeep at a time: another finds the lock held and skips', async () => {
      const holder = new Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [UPKEEP_LOCK_KEY]);
        expect((await partitions.maintain(later(7), RETENTION_DAYS)).ran).toBe(false);
        await holder.query('SELECT pg_advisory_unlock($1)', [UPKEEP_LOCK_KEY]);
      } finally {
        await holder.end();
      }
      // A kept row whose week has no partition yet (2030-12-16 has expired by then, 12-18 has not).
      const [kept] = await store([anEntry({ createdAt: at('2030-12-18') })]);
      const second = await createDomainTestContext([RequestLogsModule.register()], undefined, databaseUrl);
      try {
        const runs = await Promise.all([partitions.maintain(later(7), RETENTION_DAYS), second.app.get(RequestLogPartitionsService).maintain(later(7), RETENTION_DAYS)]);
        expect(runs.flatMap((r) => r.failures)).toEqual([]);
        expect(runs.flatMap((r) => r.created).sort()).toEqual(['request_logs_w20301216', 'request_logs_w20310324']);
        expect(runs.reduce((moved, r) => moved + r.movedFromDefault, 0)).toBe(1);
        expect(await partitionsOf([kept])).toEqual({ [kept.requestId]: 'request_logs_w20301216' });
      } finally {
        await second.app.close();
      }
    });

    it('gives up on a change that cannot have its lock within the timeout, rather than queue writes and reads behind it, and makes it on the next run', async () => {
      const [kept] = await store([anEntry({ createdAt: at('2030-12-20') })]);
      expect(await partitionsOf([kept])).toEqual({ [kept.requestId]: 'request_logs_w20301216' });
      // 2031-03-24: the week ahead needs a partition, and all of the week of 2030-12-16 has expired.
      const run = later(14);
      const holder = new Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        // A long reader of the whole table (as an unbounded search would be) holds every partition.
        await holder.query('BEGIN');
        await holder.query('SELECT count(*) FROM request_logs');
        const started = Date.now();
        const blocked = await partitions.maintain(run, RETENTION_DAYS);
        expect(blocked).toMatchObject({ created: [], dropped: [] });
        expect(blocked.failures).toEqual([
          { step: 'create partition request_logs_w20310331', error: expect.stringMatching(/lock timeout/) },
          { step: 'drop partition request_logs_w20301216', error: expect.stringMatching(/lock timeout/) },
        ]);
        // Each change waited its 300 ms at most.
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(await partitionsOf([kept])).toEqual({ [kept.requestId]: 'request_logs_w20301216' });
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      const retried = await partitions.maintain(run, RETENTION_DAYS);
      expect(retried).toMatchObject({ created: ['request_logs_w20310331'], dropped: ['request_logs_w20301216'], failures: [] });
      expect(await partitionsOf([kept])).toEqual({});
    }, 30_000);
  });

  describe('the migration, on a table with rows', () => {
    it('moves every existing row into the partition of its day, keeps the keys and indexes, and goes back with down', async () => {
      const dataSource = app.get(DataSource);
      const byTime = [...dataSource.migrations].sort((a, b) => timestampOf(a.name ?? '') - timestampOf(b.name ?? ''));
      const mine = byTime.findIndex((m) => m.name === 'PartitionRequestLogs1764003200000');
      if (mine < 0) throw new Error('the migration is not registered');
      const migration = byTime[mine];
      // The migrations after this one are undone first and redone last, as an upgrade and a rollback would run them.
      const later = byTime.slice(mine + 1);
      const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs');
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      const inTransaction = async (work: () => Promise<void>) => {
        await runner.startTransaction();
        await work();
        await runner.commitTransaction();
      };
      // As the runner does: in a transaction of its own, unless the migration runs without one.
      const asRun = (m: MigrationInterface, work: () => Promise<void>) => (m.transaction === false ? work() : inTransaction(work));
      try {
        for (const m of [...later].reverse()) await asRun(m, () => m.down(runner));
        await inTransaction(() => migration.down(runner));
        expect(await relkind('request_logs')).toBe('r');
        expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs')).rows[0].n).toBe(before.rows[0].n);

        // Rows of the unpartitioned table as it stood: several days, past and ahead, one of nobody.
        const old = [
          anEntry({ createdAt: at('2024-02-29', '23:59:59.999') }),
          anEntry({ createdAt: at('2024-03-01', '00:00:00.000') }),
          anEntry({ createdAt: at('2024-03-01', '18:30:00.000'), developerId: null, apiKeyId: null, mode: null }),
          anEntry({ createdAt: at('2032-01-01') }),
        ];
        await app.get(RequestLogsRepository).insertBatch(old.map(toRequestLogRow));
        const ids = (await db.query<{ request_id: string; id: string }>('SELECT request_id, id FROM request_logs ORDER BY request_id')).rows;

        await inTransaction(() => migration.up(runner));

        expect(await relkind('request_logs')).toBe('p');
        expect((await db.query<{ request_id: string; id: string }>('SELECT request_id, id FROM request_logs ORDER BY request_id')).rows).toEqual(ids);
        expect(await partitionsOf(old)).toEqual({
          [old[0].requestId]: partitionOf('2024-02-29'),
          [old[1].requestId]: partitionOf('2024-03-01'),
          [old[2].requestId]: partitionOf('2024-03-01'),
          [old[3].requestId]: partitionOf('2032-01-01'),
        });
        expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ONLY request_logs_default')).rows[0].n).toBe(0);
        const indexes = (await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'request_logs' ORDER BY indexname`)).rows.map((r) => r.indexdef);
        expect(indexes).toEqual([
          expect.stringContaining('(created_at)'),
          expect.stringMatching(/\(developer_id, mode, created_at DESC, id DESC\) WHERE \(developer_id IS NOT NULL\)/),
          expect.stringContaining('UNIQUE INDEX request_logs_pkey ON ONLY public.request_logs USING btree (request_id, created_at)'),
        ]);

        for (const m of later) await asRun(m, () => m.up(runner));
        // And the writer writes on, and the upkeep keeps the partitions.
        const [after] = await store([anEntry({ createdAt: new Date() })]);
        expect(await partitionsOf([after])).toEqual({ [after.requestId]: partitionOf(utcDayOf(new Date())) });
        expect((await partitions.maintain(new Date(), 90)).failures).toEqual([]);
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }, 60_000);

    async function relkind(table: string): Promise<string> {
      const { rows } = await db.query<{ relkind: string }>('SELECT relkind FROM pg_class WHERE oid = $1::regclass', [table]);
      return rows[0].relkind;
    }
  });
});

/** A TypeORM migration's timestamp, the digits its name ends with. */
function timestampOf(name: string): number {
  return Number(/(\d{13})$/.exec(name)?.[1]);
}
