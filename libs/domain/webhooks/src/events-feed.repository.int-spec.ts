import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { type DeveloperContext, FEED_START, type FeedPosition } from '@gateway/platform';
import { createDomainTestContext, waitFor } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventsFeedModule } from './events-feed.module';
import { EventsFeedRepository } from './events-feed.repository';

/** Most of the account's events are this one; the filtered reads below ask for the others. */
const COMMON = 'customer.created';
const HISTORY = 3_000;
/** Then as many events of another name, none of them common: a stretch of the feed the common name is absent from. */
const LATER = 2_000;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * The feed filtered by event name, on an account of 5,000 events of which a handful have the names
 * asked for: the page, its order across names, and what PostgreSQL reads to answer it.
 */
describe('EventsFeedRepository: the feed by event name', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let repository: EventsFeedRepository;
  let ctx: DeveloperContext;
  /** The rare events' ids in feed order, with their names. */
  let rare: Array<{ id: string; name: string }>;
  let lastCommon: string;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, EventsFeedModule]));
    dataSource = app.get(DataSource);
    repository = app.get(EventsFeedRepository);
    const developer = await app.get(DevelopersService).create({ email: `feed-names-${randomBytes(4).toString('hex')}@example.com`, name: 'F' });
    ctx = { developerId: developer.id, mode: 'test' };
    // One statement, so one transaction: feed_seq follows the series, every 1,000th a payment and
    // the one after it a refund, among common events; then only declines.
    const prefix = `evt_${randomBytes(4).toString('hex')}`;
    const written = (await dataSource.query(
      `INSERT INTO events (id, developer_id, mode, name, data, created_at)
       SELECT $1 || lpad(g::text, 16, '0'), $2, 'test',
              CASE WHEN g > $4 THEN 'payment.failed' WHEN g % 1000 = 500 THEN 'payment.success' WHEN g % 1000 = 501 THEN 'refund.completed' ELSE $3 END, '{}', now()
         FROM generate_series(1, $4::int + $5::int) g
       RETURNING id, name, feed_txid::text`,
      [prefix, ctx.developerId, COMMON, HISTORY, LATER],
    )) as Array<{ id: string; name: string; feed_txid: string }>;
    written.sort((a, b) => a.id.localeCompare(b.id));
    rare = written.filter((event) => event.name === 'payment.success' || event.name === 'refund.completed');
    const common = written.filter((event) => event.name === COMMON);
    lastCommon = common[common.length - 1].id;
    // Another mode's events of the same names are not the account's test feed.
    await dataSource.query(`INSERT INTO events (id, developer_id, mode, name, data, created_at) VALUES ($1, $2, 'live', 'payment.success', '{}', now())`, [`${prefix}live`, ctx.developerId]);
    await dataSource.query('ANALYZE events');
    // The feed shows a transaction's events once every older one has finished, tests' elsewhere on the server included.
    const horizonPassed = async () =>
      ((await dataSource.query(`SELECT pg_snapshot_xmin(pg_current_snapshot()) > $1::xid8 AS passed`, [written[0].feed_txid])) as Array<{ passed: boolean }>)[0].passed;
    await waitFor(horizonPassed, { what: 'the events to be readable', timeoutMs: 20_000, intervalMs: 20 });
  });
  afterAll(() => app?.close());

  async function readAll(names: string[], limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let after = FEED_START;
    for (let pages = 1; ; pages++) {
      const page = await repository.read(ctx, after, limit, names);
      ids.push(...page.rows.map((row) => row.id));
      after = page.next;
      if (!page.hasMore) return { ids, pages };
    }
  }

  it('returns the named events of every name in feed order, page by page, each once however often a name is asked for', async () => {
    expect(rare.map((event) => event.name).slice(0, 4)).toEqual(['payment.success', 'refund.completed', 'payment.success', 'refund.completed']);
    const all = await readAll(['refund.completed', 'payment.success', 'refund.completed'], 4);
    expect(all.ids).toEqual(rare.map((event) => event.id));
    expect(all.pages).toBe(2);

    const payments = await readAll(['payment.success'], 100);
    expect(payments.ids).toEqual(rare.filter((event) => event.name === 'payment.success').map((event) => event.id));

    const none = await repository.read(ctx, FEED_START, 100, ['transfer.failed']);
    expect([none.rows, none.hasMore]).toEqual([[], false]);
    // Past every event read: the next read starts after them, not from the start again.
    expect(none.next.txid).toBeGreaterThan(0n);
  });

  it('reads at most a page of each name, never the other events in between (the cost does not grow with the account)', async () => {
    const afterCommon = (await repository.positionOf(ctx, lastCommon)) as FeedPosition;
    for (const [names, limit, after] of [
      [['transfer.failed'], 100, FEED_START],
      [['payment.success', 'refund.completed'], 2, FEED_START],
      [['payment.success', 'dispute.created', 'transfer.failed'], 100, FEED_START],
      // A common name beside a rare one: not every common event, sorted, for a page of two.
      [[COMMON, 'payment.success'], 2, FEED_START],
      // Past the last common event: not the declines that follow it, looking for more.
      [[COMMON, 'refund.completed'], 20, afterCommon],
    ] as Array<[string[], number, FeedPosition]>) {
      const read = await rowsReadFromEvents(() => repository.read(ctx, after, limit, names));
      expect([names, read.removedByFilter]).toEqual([names, 0]);
      expect(read.returned).toBeLessThanOrEqual(names.length * (limit + 1));
    }
    expect((await repository.read(ctx, afterCommon, 20, [COMMON, 'refund.completed'])).rows).toEqual([]);
  });

  /** Runs the repository's statement under EXPLAIN ANALYZE: the rows its scans of events returned and threw away. */
  async function rowsReadFromEvents(read: () => Promise<unknown>): Promise<{ returned: number; removedByFilter: number }> {
    const query = jest.spyOn(dataSource, 'query');
    let statement: Parameters<DataSource['query']>;
    try {
      await read();
      statement = query.mock.calls[0];
    } finally {
      query.mockRestore();
    }
    const [sql, params] = statement;
    const [{ 'QUERY PLAN': [plan] }] = (await dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
    const totals = { returned: 0, removedByFilter: 0 };
    const visit = (node: PlanNode) => {
      if (node['Relation Name'] === 'events') {
        totals.returned += node['Actual Rows'] * node['Actual Loops'];
        totals.removedByFilter += (node['Rows Removed by Filter'] ?? 0) * node['Actual Loops'];
      }
      node.Plans?.forEach(visit);
    };
    visit(plan.Plan);
    return totals;
  }
});
