import type { INestApplicationContext } from '@nestjs/common';
import { createDomainTestContext, createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { type NewRequestLogEntry, toRequestLogRow } from './request-log-entry';
import { anEntry } from './request-log-entry.fixture';
import { RequestLogPartitionsService } from './request-log-partitions.service';
import { RequestLogWriter } from './request-log.writer';
import { RequestLogsModule } from './request-logs.module';
import { RequestLogsRepository } from './request-logs.repository';
import { RequestLogsService } from './request-logs.service';
import { dayAfter, utcDayOf } from './utc-day';

const DAY_MS = 86_400_000;
const UPKEEP_LOCK_KEY = 7_264_002;

/**
 * request_logs partitioned by UTC day (migration PartitionRequestLogs) and its upkeep. The file
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

  const partitionOf = (day: string) => `request_logs_p${day.replace(/-/g, '')}`;
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
      // The older one in a day partition of its own, outside the last day that lookups try first.
      await partitions.maintain(new Date(), 90);
      expect(await partitionsOf([older])).toEqual({ [older.requestId]: partitionOf(utcDayOf(older.createdAt)) });
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
    // A "now" years ahead: the days it keeps and drops are apart from every row written above.
    const NOW = new Date('2031-03-10T15:00:00Z');
    const RETENTION_DAYS = 90;
    // NOW − 90 days is 2030-12-10T15:00Z: 2030-12-10 is the oldest day kept, whole.
    const OLDEST_KEPT = '2030-12-10';

    it('creates the partitions of today and the 7 days ahead, moves in the default partition’s rows of kept days, deletes its expired ones, and drops every older day', async () => {
      const migrationDays = (await childTables()).filter((t) => /^request_logs_p\d{8}$/.test(t));
      const [expired, oldestKept, ahead] = await store([
        anEntry({ createdAt: at('2030-12-09', '23:59:59.999') }),
        anEntry({ createdAt: at(OLDEST_KEPT, '00:00:00.000') }),
        anEntry({ createdAt: at('2031-04-20') }),
      ]);
      expect(Object.values(await partitionsOf([expired, oldestKept, ahead]))).toEqual(['request_logs_default', 'request_logs_default', 'request_logs_default']);
      // With the rows the tests above left in the default partition (days around today, long before 2030).
      const { rows: expiring } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ONLY request_logs_default WHERE created_at < '${OLDEST_KEPT}T00:00:00Z'`);

      const result = await partitions.maintain(NOW, RETENTION_DAYS);

      expect(result.failures).toEqual([]);
      const week = Array.from({ length: 8 }, (_, i) => dayAfter('2031-03-10', i));
      expect(result.created).toEqual(expect.arrayContaining([OLDEST_KEPT, ...week, '2031-04-20']));
      expect(result.movedFromDefault).toBe(2);
      expect(result.deletedFromDefault).toBe(expiring[0].n);
      expect(expiring[0].n).toBeGreaterThanOrEqual(1);
      // Every partition the migration made (around today) is older than 2031's retention window.
      expect(result.dropped.map(partitionOf).sort()).toEqual(migrationDays.sort());
      expect(await partitionsOf([expired, oldestKept, ahead])).toEqual({
        [oldestKept.requestId]: partitionOf(OLDEST_KEPT),
        [ahead.requestId]: partitionOf('2031-04-20'),
      });
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ONLY request_logs_default');
      expect(rows[0].n).toBe(0);
    });

    it('changes nothing when run again', async () => {
      expect(await partitions.maintain(NOW, RETENTION_DAYS)).toEqual({ ran: true, created: [], dropped: [], movedFromDefault: 0, deletedFromDefault: 0, failures: [] });
    });

    it('drops a day once all of it is older than the retention, with its rows, and keeps the next', async () => {
      const [next] = await store([anEntry({ createdAt: at('2030-12-11', '08:00:00.000') })]);
      expect(await partitionsOf([next])).toEqual({ [next.requestId]: 'request_logs_default' });
      expect((await partitions.maintain(NOW, RETENTION_DAYS)).created).toEqual(['2030-12-11']);

      // Still within the last kept day's hours: nothing goes.
      expect((await partitions.maintain(new Date('2031-03-10T23:59:59Z'), RETENTION_DAYS)).dropped).toEqual([]);
      const dayLater = await partitions.maintain(new Date(NOW.getTime() + DAY_MS), RETENTION_DAYS);
      expect(dayLater.dropped).toEqual([OLDEST_KEPT]);
      expect(dayLater.created).toEqual(['2031-03-18']);
      const tables = await childTables();
      expect(tables).not.toContain(partitionOf(OLDEST_KEPT));
      expect(await partitionsOf([next])).toEqual({ [next.requestId]: partitionOf('2030-12-11') });
    });

    it('lets one scheduler do the upkeep at a time: another finds the lock held and skips', async () => {
      const holder = new Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [UPKEEP_LOCK_KEY]);
        expect((await partitions.maintain(new Date(NOW.getTime() + 2 * DAY_MS), RETENTION_DAYS)).ran).toBe(false);
        await holder.query('SELECT pg_advisory_unlock($1)', [UPKEEP_LOCK_KEY]);
      } finally {
        await holder.end();
      }
      const second = await createDomainTestContext([RequestLogsModule.register()], undefined, databaseUrl);
      try {
        const later = new Date(NOW.getTime() + 2 * DAY_MS);
        const runs = await Promise.all([partitions.maintain(later, RETENTION_DAYS), second.app.get(RequestLogPartitionsService).maintain(later, RETENTION_DAYS)]);
        expect(runs.flatMap((r) => r.failures)).toEqual([]);
        expect(runs.flatMap((r) => r.created)).toEqual(['2031-03-19']);
        expect(runs.flatMap((r) => r.dropped)).toEqual(['2030-12-11']);
      } finally {
        await second.app.close();
      }
    });

    it('gives up on a change that cannot have its lock within the timeout, rather than queue writes and reads behind it, and makes it on the next run', async () => {
      const [kept] = await store([anEntry({ createdAt: at('2030-12-12') })]);
      expect((await partitions.maintain(new Date(NOW.getTime() + 2 * DAY_MS), RETENTION_DAYS)).created).toEqual(['2030-12-12']);
      const later = new Date(NOW.getTime() + 3 * DAY_MS);
      const holder = new Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        // A long reader of the whole table (as an unbounded search would be) holds every partition.
        await holder.query('BEGIN');
        await holder.query('SELECT count(*) FROM request_logs');
        const started = Date.now();
        const blocked = await partitions.maintain(later, RETENTION_DAYS);
        expect(blocked).toMatchObject({ created: [], dropped: [] });
        expect(blocked.failures).toEqual([
          { step: 'create partition 2031-03-20', error: expect.stringMatching(/lock timeout/) },
          { step: 'drop partition 2030-12-12', error: expect.stringMatching(/lock timeout/) },
        ]);
        // Each change waited its 300 ms at most.
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(await partitionsOf([kept])).toEqual({ [kept.requestId]: partitionOf('2030-12-12') });
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      const retried = await partitions.maintain(later, RETENTION_DAYS);
      expect(retried).toMatchObject({ created: ['2031-03-20'], dropped: ['2030-12-12'], failures: [] });
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
      try {
        for (const m of [...later].reverse()) await inTransaction(() => m.down(runner));
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

        for (const m of later) await inTransaction(() => m.up(runner));
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
