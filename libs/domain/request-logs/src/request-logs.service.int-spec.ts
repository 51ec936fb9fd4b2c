import type { INestApplicationContext } from '@nestjs/common';
import { createDomainTestContext } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { NewRequestLogEntry } from './request-log-entry';
import { anEntry } from './request-log-entry.fixture';
import { RequestLogWriter } from './request-log.writer';
import { RequestLogsModule } from './request-logs.module';
import { type RequestLogFilter, RequestLogsService } from './request-logs.service';

const T0 = Date.parse('2030-06-01T12:00:00.000Z');
const at = (secondsAfterT0: number) => new Date(T0 + secondsAfterT0 * 1000);

describe('RequestLogsService', () => {
  let app: INestApplicationContext;
  let writer: RequestLogWriter;
  let logs: RequestLogsService;
  const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([RequestLogsModule.register({ flushIntervalMs: 3_600_000, purgeBatchSize: 3 })]));
    writer = app.get(RequestLogWriter);
    logs = app.get(RequestLogsService);
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  async function store(entries: NewRequestLogEntry[]): Promise<NewRequestLogEntry[]> {
    for (const entry of entries) writer.record(entry);
    await writer.flush();
    return entries;
  }

  /** Every page of a search, following nextCursor. */
  async function allPages(filter: Omit<RequestLogFilter, 'cursor'>): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await logs.search({ ...filter, cursor });
      pages.push(page.items.map((item) => item.request_id));
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return pages;
  }

  describe('search', () => {
    const developerId = randomUUID();
    const otherDeveloperId = randomUUID();
    let stored: Record<string, NewRequestLogEntry>;

    beforeAll(async () => {
      const mine = (overrides: Partial<NewRequestLogEntry>) => anEntry({ developerId, ...overrides });
      stored = {
        listTest: mine({ createdAt: at(1), mode: 'test', path: '/api/v1/customers', statusCode: 200 }),
        createLive: mine({ createdAt: at(2), mode: 'live', method: 'POST', path: '/api/v1/customers', statusCode: 201 }),
        missing: mine({ createdAt: at(3), mode: 'test', path: '/api/v1/customers/CUS_404', statusCode: 404 }),
        invalid: mine({ createdAt: at(4), mode: 'live', path: '/api/v1/Payments/Initialize', statusCode: 400 }),
        failed: mine({ createdAt: at(5), mode: 'test', path: '/api/v1/transfers', statusCode: 502 }),
        percent: mine({ createdAt: at(6), mode: 'test', path: '/api/v1/customers/100%25_off', statusCode: 200 }),
        others: anEntry({ developerId: otherDeveloperId, createdAt: at(7), mode: 'test', path: '/api/v1/customers', statusCode: 200 }),
      };
      await store(Object.values(stored));
    });

    const ids = (...names: string[]) => names.map((name) => stored[name].requestId);
    const find = async (filter: Partial<RequestLogFilter>) =>
      (await logs.search({ developerId, limit: 100, ...filter })).items.map((item) => item.request_id);

    it("lists one developer's requests of both modes, newest first, and never another developer's", async () => {
      expect(await find({})).toEqual(ids('percent', 'failed', 'invalid', 'missing', 'createLive', 'listTest'));
      expect(await find({ developerId: otherDeveloperId })).toEqual(ids('others'));
    });

    it('returns the stored fields in the documented shape', async () => {
      const [view] = (await logs.search({ developerId, limit: 1, requestId: stored.createLive.requestId })).items;
      expect(view).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        request_id: stored.createLive.requestId,
        created_at: '2030-06-01T12:00:02.000Z',
        duration_ms: 7,
        method: 'POST',
        path: '/api/v1/customers',
        status_code: 201,
        mode: 'live',
        api_key_id: stored.createLive.apiKeyId,
        client_ip: '203.0.113.7',
        user_agent: 'integration-test',
        request_body: null,
        response_body: { success: true, data: [] },
      });
    });

    it('filters by mode', async () => {
      expect(await find({ mode: 'live' })).toEqual(ids('invalid', 'createLive'));
      expect(await find({ mode: 'test' })).toEqual(ids('percent', 'failed', 'missing', 'listTest'));
    });

    it('filters by exact status and by status class, and both together must hold', async () => {
      expect(await find({ status: 404 })).toEqual(ids('missing'));
      expect(await find({ statusClass: '2xx' })).toEqual(ids('percent', 'createLive', 'listTest'));
      expect(await find({ statusClass: '4xx' })).toEqual(ids('invalid', 'missing'));
      expect(await find({ statusClass: '5xx' })).toEqual(ids('failed'));
      expect(await find({ statusClass: '3xx' })).toEqual([]);
      expect(await find({ status: 404, statusClass: '4xx' })).toEqual(ids('missing'));
      expect(await find({ status: 404, statusClass: '2xx' })).toEqual([]);
    });

    it('filters by a case-insensitive part of the path, taking % and _ literally', async () => {
      expect(await find({ pathContains: 'payments/init' })).toEqual(ids('invalid'));
      expect(await find({ pathContains: 'CUSTOMERS/' })).toEqual(ids('percent', 'missing'));
      expect(await find({ pathContains: '%25_' })).toEqual(ids('percent'));
      expect(await find({ pathContains: '%' })).toEqual(ids('percent'));
      expect(await find({ pathContains: 'customers_' })).toEqual([]);
    });

    it('finds a request by its id, but not another developer’s', async () => {
      expect(await find({ requestId: stored.failed.requestId })).toEqual(ids('failed'));
      expect(await find({ requestId: stored.others.requestId })).toEqual([]);
    });

    it('applies every other filter to a request found by its id past the last day, the same on every run of its reused plan', async () => {
      const developer = randomUUID();
      // Older than the last day, so only the search over every partition (prepared) can find it.
      const [older, old, newer] = await store([
        anEntry({ developerId: developer, createdAt: new Date('2021-03-01T00:00:01Z'), mode: 'test', statusCode: 200 }),
        anEntry({ developerId: developer, createdAt: new Date('2021-03-01T00:00:02Z'), mode: 'test', path: '/api/v1/customers/CUS_404', statusCode: 404 }),
        anEntry({ developerId: developer, createdAt: new Date('2021-03-01T00:00:03Z'), mode: 'test', statusCode: 200 }),
      ]);
      const found = async (filter: Partial<RequestLogFilter>) =>
        (await logs.search({ developerId: developer, limit: 10, requestId: old.requestId, ...filter })).items.map((item) => item.request_id);
      // Past the first five runs on a connection PostgreSQL may switch to the statement's generic plan.
      for (let run = 0; run < 8; run++) {
        expect(await found({ mode: 'test', status: 404, pathContains: 'CUS_404', from: old.createdAt, to: old.createdAt })).toEqual([old.requestId]);
        expect(await found({ mode: 'live' })).toEqual([]);
        expect(await found({ statusClass: '2xx' })).toEqual([]);
        expect(await found({ pathContains: 'payments' })).toEqual([]);
        expect(await found({ from: newer.createdAt })).toEqual([]);
        expect(await found({ to: older.createdAt })).toEqual([]);
        expect(await found({ developerId: otherDeveloperId })).toEqual([]);
        expect(await logs.findByRequestId({ developerId: developer, mode: 'test' }, old.requestId)).toMatchObject({ request_id: old.requestId, status_code: 404 });
        expect(await logs.findByRequestId({ developerId: developer, mode: 'live' }, old.requestId)).toBeNull();
        expect(await logs.findByRequestId({ developerId: otherDeveloperId, mode: 'test' }, old.requestId)).toBeNull();
      }
      // The unfiltered list's cursors, a row a page: after `newer` the entry is still ahead, after itself it is not.
      const first = await logs.search({ developerId: developer, limit: 1 });
      const second = await logs.search({ developerId: developer, limit: 1, cursor: first.nextCursor as string });
      expect([first.items[0].request_id, second.items[0].request_id]).toEqual([newer.requestId, old.requestId]);
      expect(await found({ cursor: first.nextCursor as string })).toEqual([old.requestId]);
      expect(await found({ cursor: second.nextCursor as string })).toEqual([]);
    });

    it('filters by a time range, both ends included', async () => {
      expect(await find({ from: at(2), to: at(4) })).toEqual(ids('invalid', 'missing', 'createLive'));
      expect(await find({ from: at(5) })).toEqual(ids('percent', 'failed'));
      expect(await find({ to: at(1) })).toEqual(ids('listTest'));
    });

    it('combines filters', async () => {
      expect(await find({ mode: 'test', statusClass: '2xx', pathContains: 'customers' })).toEqual(ids('percent', 'listTest'));
    });

    it('refuses a limit outside 1–100, a status outside 100–599 and a foreign cursor', async () => {
      await expect(logs.search({ developerId, limit: 0 })).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { limit: expect.any(Array) } });
      await expect(logs.search({ developerId, limit: 101 })).rejects.toMatchObject({ code: 'validation_error' });
      await expect(logs.search({ developerId, limit: 2.5 })).rejects.toMatchObject({ code: 'validation_error' });
      await expect(logs.search({ developerId, limit: 10, status: 42 })).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { status: expect.any(Array) } });
      await expect(logs.search({ developerId, limit: 10, statusClass: '6xx' as '5xx' })).rejects.toMatchObject({ code: 'validation_error' });
      await expect(logs.search({ developerId, limit: 10, cursor: 'bogus' })).rejects.toMatchObject({ code: 'validation_error', fieldErrors: { cursor: expect.any(Array) } });
    });
  });

  describe('pagination', () => {
    it('walks every row exactly once, ties on the timestamp included', async () => {
      const developerId = randomUUID();
      // Five requests share each timestamp: the id breaks ties.
      const entries = await store(Array.from({ length: 23 }, (_, i) => anEntry({ developerId, createdAt: at(100 + Math.floor(i / 5)) })));
      const pages = await allPages({ developerId, limit: 10 });
      expect(pages.map((page) => page.length)).toEqual([10, 10, 3]);
      const seen = pages.flat();
      expect(new Set(seen).size).toBe(23);
      expect(seen.sort()).toEqual(entries.map((e) => e.requestId).sort());
    });

    it('shows no duplicate and skips nothing while requests are logged between pages', async () => {
      const developerId = randomUUID();
      const original = await store(Array.from({ length: 20 }, (_, i) => anEntry({ developerId, createdAt: at(200 + i) })));
      const seen: string[] = [];
      let cursor: string | undefined;
      let round = 0;
      do {
        const page = await logs.search({ developerId, limit: 4, cursor });
        seen.push(...page.items.map((item) => item.request_id));
        cursor = page.nextCursor ?? undefined;
        // New requests keep arriving, newer than anything listed (the writer's normal case).
        round += 1;
        await store([anEntry({ developerId, createdAt: at(300 + round) }), anEntry({ developerId, createdAt: at(300 + round) })]);
      } while (cursor);
      expect(seen).toEqual(original.map((e) => e.requestId).reverse());
    });

    it('keeps microsecond order in the cursor', async () => {
      const developerId = randomUUID();
      // Three rows within one millisecond, as PostgreSQL (not the writer) could produce.
      const { rows } = await db.query<{ request_id: string }>(
        `INSERT INTO request_logs (request_id, created_at, duration_ms, developer_id, mode, method, path, status_code)
         SELECT 'req_us_' || $1::text || '_' || n, '2030-06-02T00:00:00.000001Z'::timestamptz + n * interval '1 microsecond',
                1, $1::uuid, 'test', 'GET', '/api/v1/customers', 200
           FROM generate_series(1, 3) AS n
         RETURNING request_id`,
        [developerId],
      );
      const pages = await allPages({ developerId, limit: 1 });
      expect(pages.flat()).toEqual(rows.map((r) => r.request_id).reverse());
    });

    it('pages a path search past the last day in order, whether the part is common (walked) or rare (collected, then sorted)', async () => {
      const developerId = randomUUID();
      // 5,050 matches over three days long past, against 5,000 the search collects: the first pages
      // take the ordered walk, the last ones (fewer matches left after the cursor) the collection.
      // Every third row does not match; a row a millisecond, newest last inserted.
      await db.query(
        `INSERT INTO request_logs (request_id, created_at, duration_ms, developer_id, mode, method, path, status_code)
         SELECT 'req_path_' || n, '2021-05-01T00:00:00Z'::timestamptz + n * interval '34 seconds', 1, $1::uuid, 'test', 'GET',
                CASE WHEN n % 3 = 0 THEN '/api/v1/customers/' || n ELSE '/api/v1/Payments/' || n END, 200
           FROM generate_series(1, 7575) AS n`,
        [developerId],
      );
      const expected = Array.from({ length: 7575 }, (_, i) => 7575 - i).filter((n) => n % 3 !== 0).map((n) => `req_path_${n}`);
      const pages = await allPages({ developerId, limit: 100, pathContains: 'payments/' });
      expect(pages.flat()).toEqual(expected);
      expect(pages.map((page) => page.length)).toEqual([...Array(50).fill(100), 50]);
      expect((await allPages({ developerId, limit: 100, pathContains: 'customers/7' })).flat()).toEqual(
        Array.from({ length: 7575 }, (_, i) => 7575 - i).filter((n) => n % 3 === 0 && String(n).startsWith('7')).map((n) => `req_path_${n}`),
      );
    });

    it('says there is no next page when the last page is exactly full', async () => {
      const developerId = randomUUID();
      await store(Array.from({ length: 4 }, (_, i) => anEntry({ developerId, createdAt: at(400 + i) })));
      const first = await logs.search({ developerId, limit: 2 });
      expect(first.hasMore).toBe(true);
      const second = await logs.search({ developerId, limit: 2, cursor: first.nextCursor as string });
      expect(second).toMatchObject({ hasMore: false, nextCursor: null });
      expect(second.items).toHaveLength(2);
    });
  });
});
