import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { testServerUrl } from '../testing/test-database';
import { preparedStatement, runStatement } from './prepared-statement';
import { runOnClient } from './statement-query';

/**
 * Named statements on real PostgreSQL: rows as `manager.query` parses them, on the first run and on
 * the runs that reuse the connection's row description; errors as pg reports them.
 */
describe('runStatement on PostgreSQL', () => {
  let db: DataSource;
  const SHAPE_SQL = `SELECT $1::numeric(20,2) AS amount, $2::timestamptz AS at, $3::jsonb AS data, NULL::text AS nothing,
    $4::boolean AS flag, $5::uuid AS id, $6::text AS "Mixed Case"`;
  const shape = preparedStatement('test.statement-query.shape', SHAPE_SQL);
  const other = preparedStatement('test.statement-query.other', 'SELECT $1::int AS n, $1::text AS amount');
  const divide = preparedStatement('test.statement-query.divide', 'SELECT 10 / $1::int AS quotient');
  const values = (i: number) => [`${i}.05`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)), JSON.stringify({ i, nested: [i] }), i % 2 === 0, randomUUID(), `row ${i}`];

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: testServerUrl(), extra: { max: 2 } }).initialize();
  });

  afterAll(() => db?.destroy());

  it('parses rows exactly as manager.query does, on every run of every connection', async () => {
    // Twelve runs over two connections: each connection's first run reads the description, the rest reuse it.
    for (let i = 0; i < 12; i++) {
      const params = values(i);
      const { rows, rowCount } = await runStatement(db.manager, shape, params);
      expect(rowCount).toBe(1);
      expect(rows).toEqual(await db.query(SHAPE_SQL, params));
      expect(rows[0]).toEqual({ amount: `${i}.05`, at: params[1], data: { i, nested: [i] }, nothing: null, flag: i % 2 === 0, id: params[4], 'Mixed Case': `row ${i}` });
    }
  });

  it('makes rows with pg’s keys, in pg’s order, when names repeat or could name the prototype', async () => {
    const odd = preparedStatement(
      'test.statement-query.odd-names',
      `SELECT $1::int AS n, $2::text AS "__proto__", 'x' AS "constructor", $1::int + 1 AS n, NULL::int AS "a""quote", $3::jsonb AS "toString"`,
    );
    const repeated = preparedStatement('test.statement-query.repeated', 'SELECT $1::int AS n, $1::int * 10 AS n, $2::text AS "Ünïcode ✓"');
    for (let i = 0; i < 6; i++) {
      const params = [i, `p${i}`, JSON.stringify([i])];
      for (const [statement, values] of [[odd, params], [repeated, [i, `u${i}`]]] as const) {
        const { rows } = await runStatement<Record<string, unknown>>(db.manager, statement, [...values]);
        const expected = (await db.query(statement.text, [...values])) as Array<Record<string, unknown>>;
        expect(rows).toEqual(expected);
        expect(Object.keys(rows[0])).toEqual(Object.keys(expected[0]));
        expect(Object.getPrototypeOf(rows[0])).toBe(Object.getPrototypeOf(expected[0]));
      }
    }
  });

  it('keeps each statement’s own shape when statements alternate on one connection', async () => {
    await db.transaction(async (manager) => {
      for (let i = 0; i < 4; i++) {
        expect((await runStatement(manager, shape, values(i))).rows[0]).toMatchObject({ amount: `${i}.05`, flag: i % 2 === 0 });
        expect((await runStatement(manager, other, [i])).rows).toEqual([{ n: i, amount: String(i) }]);
      }
    });
  });

  it('reuses the row description a connection received for a statement', async () => {
    const runner = db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      const call = { name: shape.name, text: shape.text, values: values(1) };
      const first = (await runOnClient(client, call)) as unknown as { fields: unknown[]; rows: unknown[] };
      const second = (await runOnClient(client, { ...call, values: values(2) })) as unknown as { fields: unknown[]; rows: unknown[] };
      // The same description object: pg's Result still keeps it where statement-query.ts reads it.
      expect(second.fields).toBe(first.fields);
      expect(second.rows[0]).toMatchObject({ amount: '2.05', 'Mixed Case': 'row 2' });
    } finally {
      await runner.release();
    }
  });

  it('asks PostgreSQL to describe a statement’s rows once per connection, then runs it undescribed', async () => {
    const runner = db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient & { connection: NodeJS.EventEmitter };
      let descriptions = 0;
      const countDescription = () => descriptions++;
      client.connection.on('rowDescription', countDescription);
      try {
        // A name no other test has run, so that this connection has not described it yet.
        const name = `test.described-once.${randomUUID().slice(0, 8)}`;
        for (let i = 0; i < 4; i++) {
          const params = values(i);
          const { rows } = await runOnClient(client, { name, text: SHAPE_SQL, values: params });
          expect(rows).toEqual(await client.query(SHAPE_SQL, params).then((r) => r.rows));
        }
        // Four runs of the statement, one description for it; each client.query beside it has its own.
        expect(descriptions).toBe(1 + 4);
      } finally {
        client.connection.removeListener('rowDescription', countDescription);
      }
    } finally {
      await runner.release();
    }
  });

  it('fails, never misreads, when a statement’s columns change on a connection that ran it undescribed', async () => {
    const runner = db.createQueryRunner();
    const table = `shape_change_${randomUUID().replaceAll('-', '')}`;
    // PostgreSQL keeps 63 characters of a statement's name.
    const call = { name: `test.${table}`, text: `SELECT * FROM ${table} WHERE $1::int > 0`, values: [1] };
    try {
      const client = (await runner.connect()) as PoolClient;
      await client.query(`CREATE TEMPORARY TABLE ${table} (amount numeric(20,2))`);
      await client.query(`INSERT INTO ${table} VALUES (12.50)`);
      expect((await runOnClient(client, call)).rows).toEqual([{ amount: '12.50' }]);
      expect((await runOnClient(client, call)).rows).toEqual([{ amount: '12.50' }]);
      await client.query(`ALTER TABLE ${table} ALTER COLUMN amount TYPE integer`);
      await expect(runOnClient(client, call)).rejects.toMatchObject({ code: '0A000', message: 'cached plan must not change result type' });
    } finally {
      await runner.release();
    }
  });

  it('rejects with pg’s error and leaves the pool usable, in and out of a transaction', async () => {
    const failure = (await runStatement(db.manager, divide, [0]).catch((error: Error) => error)) as Error & { code: string };
    expect(failure.code).toBe('22012');
    expect(failure.stack).toContain('prepared-statement.int-spec.ts'); // leads back to the caller
    expect((await runStatement(db.manager, divide, [5])).rows).toEqual([{ quotient: 2 }]);
    await expect(db.transaction((manager) => runStatement(manager, divide, [0]))).rejects.toMatchObject({ code: '22012' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => runStatement(db.manager, divide, [i + 1])));
    expect(results.map((r) => r.rows[0])).toEqual(Array.from({ length: 20 }, (_, i) => ({ quotient: Math.trunc(10 / (i + 1)) })));
  });
});
