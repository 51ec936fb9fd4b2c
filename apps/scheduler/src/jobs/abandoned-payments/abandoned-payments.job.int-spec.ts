import { PaymentsMaintenanceService, PaymentsModule } from '@gateway/domain/payments';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { ConfigModule } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AbandonedPaymentsJob } from './abandoned-payments.job';

describe('AbandonedPaymentsJob', () => {
  let app: INestApplicationContext;
  let clock: Awaited<ReturnType<typeof createDomainTestContext>>['clock'];

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig()), DevelopersModule, PaymentsModule]));
  });
  afterAll(() => app?.close());

  async function insertPending(createdAt: Date): Promise<string> {
    const developer = await app.get(DevelopersService).create({ email: `abandon-${createdAt.getTime()}-${Math.random()}@example.com`, name: 'A' });
    const db = app.get(DataSource);
    const [customer] = await db.query(`INSERT INTO customers (developer_id, mode, reference, email) VALUES ($1, 'test', $2, 'c@example.com') RETURNING id, reference`, [
      developer.id,
      `CUS_${Math.random().toString(36).slice(2)}`,
    ]);
    const [payment] = await db.query(
      `INSERT INTO payments (developer_id, mode, reference, status, customer_id, customer_reference, email, amount, currency, created_at, updated_at)
       VALUES ($1, 'test', $2, 'pending', $3, $4, 'c@example.com', 1000, 'NGN', $5, $5) RETURNING reference`,
      [developer.id, `PAY_${Math.random().toString(36).slice(2)}`, customer.id, customer.reference, createdAt],
    );
    return payment.reference;
  }

  const statusOf = async (reference: string) => (await app.get(DataSource).query(`SELECT status FROM payments WHERE reference = $1`, [reference]))[0].status;

  it('abandons payments unpaid for more than 24 hours and leaves younger ones pending; two scans at once (two connections, one process) abandon it once', async () => {
    const now = clock.now();
    const stale = await insertPending(new Date(now.getTime() - 25 * 3_600_000));
    const fresh = await insertPending(new Date(now.getTime() - 23 * 3_600_000));
    const jobs = [new AbandonedPaymentsJob(app.get(PaymentsMaintenanceService)), new AbandonedPaymentsJob(app.get(PaymentsMaintenanceService))];
    const counts = await Promise.all(jobs.map((job) => job.run()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await statusOf(stale)).toBe('abandoned');
    expect(await statusOf(fresh)).toBe('pending');
  });
});
