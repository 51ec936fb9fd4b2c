import { dataSourceOptions } from '@gateway/platform';
import { createTestDatabase, dropTestDatabase } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource, type QueryRunner } from 'typeorm';
import { PaymentAuthorizationEntity } from './payment-authorization.entity';
import { PaymentEntity } from './payment.entity';
import { PaymentsRepository } from './payments.repository';

/**
 * Initialize stores the provider's checkout link on the payment it has just inserted. That update
 * writes no indexed column, so PostgreSQL makes it a HOT update: the row's new version goes on the
 * same page and no index gets an entry. An index that names a column it writes, even only in its
 * predicate, makes every index of the table take an entry for every checkout payment
 * (docs/benchmarks.md, "The checkout link's update").
 *
 * On a database of this file's own: a HOT update also needs room on the row's page, which an empty
 * table always has and a table other test files fill does not.
 */
describe("the checkout link's update", () => {
  let url: string;
  let db: DataSource;

  beforeAll(async () => {
    url = await createTestDatabase('checkout_link');
    db = await new DataSource({ ...dataSourceOptions(url, { size: 2 }), entities: [PaymentEntity, PaymentAuthorizationEntity] }).initialize();
  });
  afterAll(async () => {
    await db?.destroy();
    if (url) await dropTestDatabase(url);
  });

  /** In a transaction rolled back after: a new checkout payment's link recorded, and how the table counted that update. */
  async function recordLink(prepare?: (runner: QueryRunner) => Promise<void>): Promise<{ updated: number; hot: number; url: string | null }> {
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      await prepare?.(runner);
      const [developer] = (await runner.query(`INSERT INTO developers (email, name) VALUES ($1, 'Link') RETURNING id`, [`link-${randomUUID()}@example.com`])) as Array<{ id: string }>;
      const [customer] = (await runner.query(`INSERT INTO customers (developer_id, mode, reference, email) VALUES ($1, 'test', $2, 'c@example.com') RETURNING id`, [
        developer.id,
        `CUS_${randomUUID()}`,
      ])) as Array<{ id: string }>;
      const [payment] = (await runner.query(
        `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, created_at, updated_at)
         VALUES ($1, 'test', $2, 'pending', $3, 'CUS', 'c@example.com', 1000, 'NGN', now(), now()) RETURNING id`,
        [developer.id, `PAY-${randomUUID()}`, customer.id],
      )) as Array<{ id: string }>;
      // The repository on this transaction's connection: the statement initialize runs, as it runs it.
      const repository = new PaymentsRepository(runner.manager.getRepository(PaymentEntity), runner.manager.getRepository(PaymentAuthorizationEntity));
      const before = await updateCounts(runner);
      const view = await repository.recordProviderCheckout(payment.id, {
        providerAccessCode: 'access-code',
        providerAuthorizationUrl: 'https://checkout.example.com/access-code',
        updatedAt: new Date(),
      });
      const after = await updateCounts(runner);
      return { updated: after.updated - before.updated, hot: after.hot - before.hot, url: view?.payment.providerAuthorizationUrl ?? null };
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  /**
   * The connection's counts of updates to payments not yet sent to the shared statistics
   * (pg_stat_get_xact_*): they include earlier transactions of the connection, but are sent only
   * when it is idle outside a transaction, so two readings in one transaction differ by its own.
   */
  async function updateCounts(runner: QueryRunner): Promise<{ updated: number; hot: number }> {
    const [counts] = (await runner.query(
      `SELECT pg_stat_get_xact_tuples_updated('payments'::regclass)::int AS updated, pg_stat_get_xact_tuples_hot_updated('payments'::regclass)::int AS hot`,
    )) as Array<{ updated: number; hot: number }>;
    return counts;
  }

  it('is a HOT update with the indexes as migrated', async () => {
    expect(await recordLink()).toEqual({ updated: 1, hot: 1, url: 'https://checkout.example.com/access-code' });
  });

  it('is not one once an index names the URL in its predicate (what the abandonment index did)', async () => {
    const withOldIndex = (runner: QueryRunner) =>
      runner.query(`CREATE INDEX payments_open_checkouts ON payments (created_at) WHERE status = 'failed' AND provider_authorization_url IS NOT NULL`);
    expect(await recordLink(withOldIndex)).toEqual({ updated: 1, hot: 0, url: 'https://checkout.example.com/access-code' });
  });
});
