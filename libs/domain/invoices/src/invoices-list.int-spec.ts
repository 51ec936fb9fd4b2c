import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CustomersService } from '@gateway/domain/customers';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, statementsRun, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { InvoicesModule } from './invoices.module';
import { InvoicesRepository } from './invoices.repository';

const DAY_MS = 86_400_000;
const INVOICES = 20_000;
/** The oldest invoices are due in the first days of the history; the newer ones a year later. */
const OLD = 5_000;

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * The invoice list by due date, on an account whose invoices are due at any distance from when
 * they were made: the pages (newest first, as without the filter) and what PostgreSQL reads.
 */
describe('InvoicesRepository.list by due date', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let repository: InvoicesRepository;
  let ctx: DeveloperContext;
  /** Every invoice: its id, its creation (ms) and its due date, newest first as the list orders them. */
  let all: Array<{ id: string; created: number; due: string }>;
  const origin = Date.parse('2026-01-01T00:00:00Z');
  const dueOn = (day: number) => new Date(origin + day * DAY_MS).toISOString().slice(0, 10);

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), DevelopersModule, InvoicesModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    repository = app.get(InvoicesRepository);
    const developer = await app.get(DevelopersService).create({ email: `invoice-list-${randomUUID()}@example.com`, name: 'Invoices' });
    ctx = { developerId: developer.id, mode: 'test' };
    const customer = await app.get(CustomersService, { strict: false }).create(ctx, { email: `c-${randomUUID().slice(0, 8)}@example.com`, name: 'Ada' });
    // Invoice g made g hours after the origin; pairs made at the same instant (ties broken by id).
    // The first OLD due on day g % 5 and drafts, the others due a year after they were made and sent.
    const rows = (await dataSource.query(
      `INSERT INTO invoices (id, developer_id, mode, reference, customer_id, customer_reference, currency, due_date, line_items, total_amount, status, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'test', 'INV_list_' || $4 || '_' || g, $2, $3, 'NGN',
              CASE WHEN g <= $6 THEN $5::date + g % 5 ELSE ($5::date + (g / 2) / 24 + 365) END, '[]', 100,
              CASE WHEN g <= $6 THEN 'draft' ELSE 'sent' END, c.t, c.t
         FROM generate_series(1, $7::int) g
        CROSS JOIN LATERAL (SELECT $5::timestamptz + (g / 2) * interval '1 hour' AS t) c
       RETURNING id, created_at, due_date::text AS due`,
      [ctx.developerId, customer.id, customer.reference, randomUUID().slice(0, 8), dueOn(0), OLD, INVOICES],
    )) as Array<{ id: string; created_at: Date; due: string }>;
    all = rows.map((r) => ({ id: r.id, created: r.created_at.getTime(), due: r.due })).sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    await dataSource.query('ANALYZE invoices');
  });
  afterAll(() => app?.close());

  async function pages(filter: { dueFrom?: string; dueTo?: string }, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await repository.list(ctx, { ...filter, limit, cursor });
      ids.push(...page.items.map((invoice) => invoice.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  }

  it('pages through the invoices due in the range, newest first (ties by id) as without the filter', async () => {
    const expected = (from: string, to: string) => all.filter((invoice) => invoice.due >= from && invoice.due <= to).map((invoice) => invoice.id);
    expect(await pages({ dueFrom: dueOn(2), dueTo: dueOn(2) }, 70)).toEqual(expected(dueOn(2), dueOn(2)));
    expect(await pages({ dueTo: dueOn(1) }, 100)).toEqual(expected('0000', dueOn(1)));
    expect(await pages({ dueFrom: dueOn(3) }, 100)).toEqual(expected(dueOn(3), '9999'));
    expect(await pages({ dueFrom: dueOn(5), dueTo: dueOn(300) }, 10)).toEqual([]);
    expect(expected(dueOn(2), dueOn(2))).toHaveLength(OLD / 5);
  });

  it('reads about a page, not every invoice due in the range nor the newer ones in between (the cost does not grow with the account)', async () => {
    const first = await rowsRead(() => repository.list(ctx, { dueTo: dueOn(4), limit: 5 }));
    const page = await repository.list(ctx, { dueTo: dueOn(4), limit: 5 });
    const next = await rowsRead(() => repository.list(ctx, { dueTo: dueOn(4), limit: 5, cursor: page.nextCursor as string }));
    // A status none of the range has, though the account has many (the sent ones are due later).
    const none = await rowsRead(async () => expect((await repository.list(ctx, { dueTo: dueOn(4), status: 'sent', limit: 5 })).items).toEqual([]));
    expect([none.returned, none.removedByFilter]).toEqual([0, 0]);
    for (const read of [first, next]) {
      expect(read.indexes).not.toContain('none');
      // The nearest six, then the invoices of the sixth's instant (two are made at each), and the ties the keyset skips.
      expect(read.returned).toBeLessThanOrEqual(6 + 2);
      expect(read.removedByFilter).toBeLessThanOrEqual(2);
    }
  });

  /** Runs the list's statements again under EXPLAIN ANALYZE: the indexes they read and the invoices their scans returned and threw away. */
  async function rowsRead(list: () => Promise<unknown>): Promise<{ indexes: string[]; returned: number; removedByFilter: number }> {
    const statements = await statementsRun(list, (sql) => sql.includes('"invoices"'));
    const read = { indexes: new Set<string>(), returned: 0, removedByFilter: 0 };
    const visit = (node: PlanNode) => {
      if (node['Relation Name'] === 'invoices') {
        read.indexes.add(node['Index Name'] ?? 'none');
        read.returned += node['Actual Rows'] * node['Actual Loops'];
        read.removedByFilter += (node['Rows Removed by Filter'] ?? 0) * node['Actual Loops'];
      }
      node.Plans?.forEach(visit);
    };
    for (const [sql, params] of statements) {
      const [{ 'QUERY PLAN': [plan] }] = (await dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
      visit(plan.Plan);
    }
    return { ...read, indexes: [...read.indexes] };
  }
});
