import { type INestApplicationContext, Logger } from '@nestjs/common';
import { createDomainTestContext, waitFor } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { anEntry } from './request-log-entry.fixture';
import { RequestLogWriter } from './request-log.writer';
import type { RequestLogsOptions } from './request-logs.options';
import { RequestLogsModule } from './request-logs.module';
import { RequestLogsRepository } from './request-logs.repository';

const CANARY = 'CANARY-4084-0840-8408-4084';

/** A writer that only flushes when told to or when a batch fills (the timer is an hour). */
async function startWriter(options: Partial<RequestLogsOptions> = {}): Promise<{ app: INestApplicationContext; writer: RequestLogWriter; repository: RequestLogsRepository }> {
  const { app } = await createDomainTestContext([RequestLogsModule.register({ flushIntervalMs: 3_600_000, ...options })]);
  return { app, writer: app.get(RequestLogWriter), repository: app.get(RequestLogsRepository) };
}

describe('RequestLogWriter', () => {
  const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  beforeAll(() => db.connect());
  afterAll(() => db.end());

  async function countFor(developerId: string): Promise<number> {
    const result = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_logs WHERE developer_id = $1', [developerId]);
    return result.rows[0].n;
  }

  describe('batching', () => {
    let app: INestApplicationContext;
    let writer: RequestLogWriter;
    let repository: RequestLogsRepository;
    beforeAll(async () => {
      ({ app, writer, repository } = await startWriter({ batchSize: 5 }));
    });
    afterAll(() => app.close());

    it('keeps entries in memory until a batch is full, then writes the batch without waiting for the timer', async () => {
      const developerId = randomUUID();
      const insertBatch = jest.spyOn(repository, 'insertBatch');
      try {
        for (let i = 0; i < 4; i++) writer.record(anEntry({ developerId }));
        expect(await countFor(developerId)).toBe(0);
        expect(writer.pending).toBe(4);

        writer.record(anEntry({ developerId }));
        await waitFor(async () => (await countFor(developerId)) === 5, { what: 'five entries written', timeoutMs: 15_000, intervalMs: 10 });
        expect(writer.pending).toBe(0);
        // The proof the four waited: they were written in the fifth's batch, not before it on their own.
        expect(insertBatch.mock.calls.map(([rows]) => rows.length)).toEqual([5]);
      } finally {
        insertBatch.mockRestore();
      }
    });

    it('after a full batch, leaves the entries recorded meanwhile for the timer instead of writing them as a small batch', async () => {
      const developerId = randomUUID();
      const writes: Array<Promise<void>> = [];
      const insertBatch = jest.spyOn(repository, 'insertBatch');
      insertBatch.mockImplementation(function (this: RequestLogsRepository, rows) {
        const written = RequestLogsRepository.prototype.insertBatch.call(this, rows);
        writes.push(written);
        return written;
      });
      try {
        // The fifth starts a write of five; the sixth and seventh arrive while it runs.
        for (let i = 0; i < 7; i++) writer.record(anEntry({ developerId }));
        await Promise.all(writes);
        // A write that chased them would start as soon as the first resolved: give it that turn.
        await new Promise((resolve) => setImmediate(resolve));
        expect(insertBatch.mock.calls.map(([rows]) => rows.length)).toEqual([5]);
        expect(writer.pending).toBe(2);
        expect(await countFor(developerId)).toBe(5);

        await writer.flush();
        expect(insertBatch.mock.calls.map(([rows]) => rows.length)).toEqual([5, 2]);
        expect(await countFor(developerId)).toBe(7);
      } finally {
        insertBatch.mockRestore();
      }
    });

    it('writes one statement per batch (COPY), never one per entry', async () => {
      const developerId = randomUUID();
      const insertBatch = jest.spyOn(repository, 'insertBatch');
      // Recorded before the first write completes, so they queue up as 12 → 5 + 5 + 2.
      for (let i = 0; i < 12; i++) writer.record(anEntry({ developerId }));
      await writer.flush();
      expect(await countFor(developerId)).toBe(12);
      expect(insertBatch.mock.calls.map(([rows]) => rows.length)).toEqual([5, 5, 2]);
      insertBatch.mockRestore();
    });

    it('stores every field of the entry, with both bodies redacted', async () => {
      const entry = anEntry({
        method: 'POST',
        path: '/api/v1/charges',
        route: '/api/v1/charges',
        statusCode: 402,
        durationMs: 41.4,
        mode: 'live',
        requestBody: JSON.stringify({ amount: 100, card: { card_number: CANARY, cvv: CANARY, expiry: '12/30' } }),
        responseBody: JSON.stringify({ success: false, data: { authorization: { authorization_code: CANARY, last4: '1111' } } }),
        clientIp: '198.51.100.4',
        userAgent: 'my-shop/1.0',
      });
      writer.record(entry);
      await writer.flush();
      const { rows } = await db.query('SELECT *, row_to_json(request_logs)::text AS raw FROM request_logs WHERE request_id = $1', [entry.requestId]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        created_at: entry.createdAt,
        duration_ms: 41,
        developer_id: entry.developerId,
        api_key_id: entry.apiKeyId,
        mode: 'live',
        method: 'POST',
        path: '/api/v1/charges',
        route: '/api/v1/charges',
        status_code: 402,
        request_body: { amount: 100, card: { card_number: '[REDACTED]', cvv: '[REDACTED]', expiry: '12/30' } },
        response_body: { success: false, data: { authorization: { authorization_code: '[REDACTED]', last4: '1111' } } },
        client_ip: '198.51.100.4',
        user_agent: 'my-shop/1.0',
      });
      expect(rows[0].raw).not.toContain(CANARY);
    });

    it('stores an unauthenticated request with no developer, key or mode', async () => {
      const entry = anEntry({ developerId: null, apiKeyId: null, mode: null, statusCode: 401, route: null });
      writer.record(entry);
      await writer.flush();
      const { rows } = await db.query('SELECT developer_id, api_key_id, mode, route FROM request_logs WHERE request_id = $1', [entry.requestId]);
      expect(rows).toEqual([{ developer_id: null, api_key_id: null, mode: null, route: null }]);
    });

    it('stores bodies with quotes, backslashes, braces, NUL characters and lone surrogates', async () => {
      const nasty = { text: 'a "quoted" \\ {brace}, NULL \u0000 \ud800 😀', list: ['}', '{', ','] };
      const entry = anEntry({ requestBody: JSON.stringify(nasty) });
      writer.record(entry);
      await writer.flush();
      const { rows } = await db.query('SELECT request_body FROM request_logs WHERE request_id = $1', [entry.requestId]);
      expect(rows[0].request_body).toEqual({ text: 'a "quoted" \\ {brace}, NULL \ufffd \ufffd 😀', list: ['}', '{', ','] });
    });

    it('keeps tabs, newlines, carriage returns and backslashes in text columns and bodies exactly (COPY escaping)', async () => {
      const body = '{\n\t"path": "C:\\\\tmp\\\\new",\r\n\t"note": "tab\\tand\\nnewline", "marker": "\\\\N"\n}';
      const entry = anEntry({ requestBody: body, userAgent: 'agent\twith\ttabs\\N', path: '/api/v1/odd\\path' });
      writer.record(entry);
      await writer.flush();
      const { rows } = await db.query('SELECT request_body, user_agent, path FROM request_logs WHERE request_id = $1', [entry.requestId]);
      expect(rows[0]).toEqual({ request_body: JSON.parse(body), user_agent: 'agent\twith\ttabs\\N', path: '/api/v1/odd\\path' });
    });

    it('writes a request id only once even when a batch is sent again', async () => {
      const entry = anEntry();
      writer.record(entry);
      await writer.flush();
      writer.record(entry);
      await writer.flush();
      const { rows } = await db.query('SELECT count(*)::int AS n FROM request_logs WHERE request_id = $1', [entry.requestId]);
      expect(rows[0].n).toBe(1);
    });

    it('drops only a row the database refuses and writes the rest of its batch', async () => {
      const developerId = randomUUID();
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const good = [anEntry({ developerId }), anEntry({ developerId })];
      // The writer never produces such a row itself; it stands for any row PostgreSQL refuses.
      const refused = anEntry({ developerId, statusCode: 999 });
      writer.record(good[0]);
      writer.record(refused);
      writer.record(good[1]);
      await writer.flush();
      expect(await countFor(developerId)).toBe(2);
      expect(writer.pending).toBe(0);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(refused.requestId));
      warn.mockRestore();
    });
  });

  describe('when the database fails', () => {
    let app: INestApplicationContext;
    let writer: RequestLogWriter;
    let repository: RequestLogsRepository;
    beforeAll(async () => {
      ({ app, writer, repository } = await startWriter({ batchSize: 4 }));
    });
    afterAll(() => app.close());

    it('keeps the entries and writes them once the database is back', async () => {
      const developerId = randomUUID();
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const outage = jest.spyOn(repository, 'insertBatch').mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
      for (let i = 0; i < 3; i++) writer.record(anEntry({ developerId }));
      await writer.flush();
      expect(writer.pending).toBe(3);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));

      outage.mockRestore();
      await writer.flush();
      expect(writer.pending).toBe(0);
      expect(await countFor(developerId)).toBe(3);
      warn.mockRestore();
    });

    // A large entry carries a ~40 KB response body: the byte bound (room for ~3 of them) is reached, not the count.
    const largeBody = JSON.stringify({ success: true, data: { notes: 'x'.repeat(40_000) } });
    it.each([
      { bound: 'entries', options: { maxBuffered: 10 }, recorded: 15, responseBody: undefined, kept: 10 },
      { bound: 'bytes', options: { maxBuffered: 1000, maxBufferedBytes: 3.5 * 2 * largeBody.length }, recorded: 8, responseBody: largeBody, kept: 3 },
    ])('bounds its memory in $bound: past the maximum it drops the oldest entries and says how many', async ({ options, recorded, responseBody, kept }) => {
      const bounded = await startWriter({ batchSize: 4, ...options });
      try {
        const developerId = randomUUID();
        const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
        const outage = jest.spyOn(bounded.repository, 'insertBatch').mockRejectedValue(new Error('Connection terminated unexpectedly'));
        const entries = Array.from({ length: recorded }, () => anEntry({ developerId, ...(responseBody ? { responseBody } : {}) }));
        for (const entry of entries) bounded.writer.record(entry);
        await bounded.writer.flush();
        expect(bounded.writer.pending).toBe(kept);

        outage.mockRestore();
        await bounded.writer.flush();
        const { rows } = await db.query<{ request_id: string }>('SELECT request_id FROM request_logs WHERE developer_id = $1', [developerId]);
        expect(rows.map((r) => r.request_id).sort()).toEqual(entries.slice(recorded - kept).map((e) => e.requestId).sort());
        expect(warn).toHaveBeenCalledWith(expect.stringContaining(`Dropped ${recorded - kept} request log entries`));
        warn.mockRestore();
      } finally {
        await bounded.app.close();
      }
    });
  });

  it('writes every buffered entry when the application shuts down', async () => {
    const { app, writer } = await startWriter({ batchSize: 10_000 });
    const developerId = randomUUID();
    for (let i = 0; i < 1500; i++) writer.record(anEntry({ developerId }));
    expect(writer.pending).toBe(1500);
    await app.close();
    expect(await countFor(developerId)).toBe(1500);
  });

  it('flushes on its timer without being asked', async () => {
    const { app, writer } = await startWriter({ flushIntervalMs: 20 });
    const developerId = randomUUID();
    writer.record(anEntry({ developerId }));
    await waitFor(async () => (await countFor(developerId)) === 1, { what: 'the entry written', timeoutMs: 15_000, intervalMs: 10 });
    await app.close();
  });
});
