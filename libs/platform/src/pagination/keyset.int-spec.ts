import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { testServerUrl } from '../testing/test-database';
import { newestFirst, type Page } from '.';

/**
 * Paging on real PostgreSQL, both ways the repositories query: a TypeORM query builder and raw SQL.
 * Rows share timestamps (ties are broken by id) and a row inserted mid-way must not shift a page.
 */
describe('keyset pages on PostgreSQL', () => {
  let db: DataSource;
  // Millisecond timestamps, as the entities write them (a Date holds no more).
  const ids = Array.from({ length: 7 }, () => randomUUID());
  const stamps = ['2025-01-01T00:00:00.001Z', '2025-01-01T00:00:00.001Z', '2025-01-01T00:00:01Z', '2025-01-01T00:00:01Z', '2025-01-01T00:00:01Z', '2025-01-02T00:00:00Z', '2025-01-03T00:00:00Z'];

  beforeAll(async () => {
    // One connection, so the temporary table is visible to every query.
    db = await new DataSource({ type: 'postgres', url: testServerUrl(), extra: { max: 1 } }).initialize();
    await db.query('CREATE TEMPORARY TABLE keyset_rows (id uuid PRIMARY KEY, created_at timestamptz NOT NULL, kind text NOT NULL)');
    for (const [index, id] of ids.entries()) await db.query('INSERT INTO keyset_rows VALUES ($1, $2, $3)', [id, stamps[index], index % 2 ? 'odd' : 'even']);
  });

  afterAll(() => db?.destroy());

  const expectedOrder = async (where = 'true'): Promise<string[]> =>
    ((await db.query(`SELECT id FROM keyset_rows WHERE ${where} ORDER BY created_at DESC, id DESC`)) as Array<{ id: string }>).map((r) => r.id);

  /** Builder rows carry created_at as a Date (milliseconds), as the entities do. */
  async function builderPage(limit: number, cursor?: string): Promise<Page<string>> {
    const page = newestFirst.page({ limit, cursor });
    const query = db.createQueryBuilder().select(['k.id AS id', 'k.created_at AS "createdAt"']).from('keyset_rows', 'k').where('k.kind IN (:...kinds)', { kinds: ['odd', 'even'] });
    const rows = (await page.applyTo(query, 'k').getRawMany()) as Array<{ id: string; createdAt: Date }>;
    return page.toPage(rows, (row) => row.id);
  }

  /** Raw rows carry created_at as microsecond text, as the request log does. */
  async function rawPage(limit: number, cursor?: string): Promise<Page<string>> {
    const page = newestFirst.page({ limit, cursor });
    const params: unknown[] = [];
    const bind = (value: unknown) => (params.push(value), `$${params.length}`);
    const keyset = page.sql(bind, 'k');
    const rows = (await db.query(
      `SELECT k.id, to_char(k.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at FROM keyset_rows k
        WHERE ${['k.kind <> ' + bind('none'), keyset.where].filter(Boolean).join(' AND ')} ORDER BY ${keyset.orderBy} LIMIT ${keyset.limit}`,
      params,
    )) as Array<{ id: string; cursor_at: string }>;
    return page.toPage(rows, (row) => row.id, (row) => ({ createdAt: row.cursor_at, id: row.id }));
  }

  async function walk(read: (limit: number, cursor?: string) => Promise<Page<string>>, limit: number): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await read(limit, cursor);
      pages.push(page.items);
      expect(page.hasMore).toBe(page.nextCursor !== null);
      if (!page.nextCursor) return pages;
      cursor = page.nextCursor;
    }
  }

  it.each([
    ['a TypeORM query builder', builderPage],
    ['raw SQL', rawPage],
  ])('walks every row once, newest first, ties broken by id, through %s', async (_how, read) => {
    const expected = await expectedOrder();
    expect((await walk(read, 3)).map((p) => p.length)).toEqual([3, 3, 1]);
    expect((await walk(read, 3)).flat()).toEqual(expected);
    expect((await walk(read, 7)).flat()).toEqual(expected);
    expect(await walk(read, 7)).toHaveLength(1);
  });

  it.each([
    ['a TypeORM query builder', builderPage],
    ['raw SQL', rawPage],
  ])('is not shifted by a row inserted while a client pages (%s)', async (_how, read) => {
    const first = await read(2);
    const newer = randomUUID();
    await db.query(`INSERT INTO keyset_rows VALUES ($1, '2030-01-01T00:00:00Z', 'even')`, [newer]);
    try {
      const second = await read(2, first.nextCursor as string);
      const expected = (await expectedOrder(`id <> '${newer}'`)).slice(2, 4);
      expect(second.items).toEqual(expected);
    } finally {
      await db.query('DELETE FROM keyset_rows WHERE id = $1', [newer]);
    }
  });
});
