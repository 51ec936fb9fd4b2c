import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import type { DeveloperContext } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { CustomersModule } from './customers.module';
import { CustomersService } from './customers.service';

describe('CustomersService', () => {
  let app: INestApplicationContext;
  let customers: CustomersService;
  let test: DeveloperContext;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, CustomersModule]));
    customers = app.get(CustomersService);
    const developer = await app.get(DevelopersService).create({ email: 'customers-int@example.com', name: 'C' });
    test = { developerId: developer.id, mode: 'test' };
  });
  afterAll(() => app.close());

  it('creates one customer when 20 payments for a new e-mail arrive at once', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => customers.findOrCreateByEmail(test, 'Burst@Example.com')));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.customer.id)).size).toBe(1);
  });

  it('finds the existing customer whatever the e-mail case, and keeps modes apart', async () => {
    const first = await customers.findOrCreateByEmail(test, 'case@example.com');
    const again = await customers.findOrCreateByEmail(test, 'CASE@example.com');
    expect(again).toEqual({ customer: first.customer, created: false });
    const live = await customers.findOrCreateByEmail({ ...test, mode: 'live' }, 'case@example.com');
    expect(live.created).toBe(true);
    expect(live.customer.id).not.toBe(first.customer.id);
  });

  it('refuses an explicit duplicate with customer_exists', async () => {
    await customers.create(test, { email: 'explicit@example.com' });
    await expect(customers.create(test, { email: 'EXPLICIT@example.com' })).rejects.toMatchObject({ code: 'customer_exists' });
  });
});
