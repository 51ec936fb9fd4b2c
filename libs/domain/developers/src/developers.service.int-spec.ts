import type { INestApplicationContext } from '@nestjs/common';
import { Amount } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { DevelopersModule } from './developers.module';
import { DevelopersService } from './developers.service';

describe('DevelopersService', () => {
  let app: INestApplicationContext;
  let developers: DevelopersService;

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule]));
    developers = app.get(DevelopersService);
  });
  afterAll(() => app.close());

  it('normalises the e-mail and refuses a case-insensitive duplicate', async () => {
    const created = await developers.create({ email: '  Grace@Example.com ', name: 'Grace' });
    expect(created.email).toBe('grace@example.com');
    await expect(developers.create({ email: 'GRACE@example.com', name: 'Again' })).rejects.toMatchObject({ code: 'conflict' });
    expect((await developers.find('GRACE@EXAMPLE.COM')).id).toBe(created.id);
  });

  it('keeps a zero fee override distinct from no override', async () => {
    const dev = await developers.create({ email: 'zero-fee@example.com', name: 'Zero' });
    expect(await developers.feeOverride(dev.id, 'NGN')).toBeNull();
    await developers.setFeeOverride(dev.id, 'NGN', Amount.zero(), 'staff@example.com');
    expect((await developers.feeOverride(dev.id, 'NGN'))?.toString()).toBe('0.00');
    await developers.setFeeOverride(dev.id, 'NGN', Amount.parse('12.5'), 'staff@example.com');
    expect((await developers.feeOverride(dev.id, 'NGN'))?.toString()).toBe('12.50');
  });

  it('refuses a negative fee and an unknown developer', async () => {
    const dev = await developers.create({ email: 'neg-fee@example.com', name: 'Neg' });
    await expect(developers.setFeeOverride(dev.id, 'USD', Amount.parse('-1'), 'staff@example.com')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(developers.get('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ code: 'developer_not_found' });
  });

  it('verifies identity once and keeps the first verification time', async () => {
    const dev = await developers.create({ email: 'idv@example.com', name: 'Idv' });
    const first = await developers.verifyIdentity(dev.id);
    const again = await developers.verifyIdentity(dev.id);
    expect(first.identityVerifiedAt).not.toBeNull();
    expect(again.identityVerifiedAt?.getTime()).toBe(first.identityVerifiedAt?.getTime());
  });

  it('keeps every fee change with the previous amount and who made it, newest first', async () => {
    const dev = await developers.create({ email: 'fee-history@example.com', name: 'History' });
    await developers.setFeeOverride(dev.id, 'KES', Amount.parse('5'), 'first@example.com');
    await developers.setFeeOverride(dev.id, 'KES', Amount.parse('7.25'), 'second@example.com');
    const history = await developers.feeHistory(dev.id);
    expect(history.map((h) => [h.amount?.toString(), h.previousAmount?.toString() ?? null, h.changedBy])).toEqual([
      ['7.25', '5.00', 'second@example.com'],
      ['5.00', null, 'first@example.com'],
    ]);
  });

  it('suspends and reactivates once each, recording each change in its transaction', async () => {
    const dev = await developers.create({ email: 'suspend-me@example.com', name: 'Suspend Me' });
    const changes: string[] = [];
    const staff = { record: async (_m: unknown, change: { action: string }) => void changes.push(change.action) };
    const suspended = await developers.suspend(dev.id, 'chargeback fraud', staff);
    expect(suspended.suspendedAt).not.toBeNull();
    await expect(developers.suspend(dev.id, 'again', staff)).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('suspended') });
    const active = await developers.reactivate(dev.id, staff);
    expect(active.suspendedAt).toBeNull();
    await expect(developers.reactivate(dev.id, staff)).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('active') });
    expect(changes).toEqual(['developer.suspended', 'developer.reactivated']);
  });

  it('finds accounts by part of the name or e-mail, case-insensitive, newest first', async () => {
    await developers.create({ email: 'alpha-search@example.com', name: 'Zanzibar Traders' });
    await developers.create({ email: 'beta-search@example.com', name: 'Other' });
    const byName = await developers.search({ q: 'ZIBAR' }, { limit: 10 });
    expect(byName.items.map((d) => d.email)).toEqual(['alpha-search@example.com']);
    const byEmail = await developers.search({ q: 'a-sEarch@' }, { limit: 10 });
    expect(byEmail.items.map((d) => d.email)).toEqual(['beta-search@example.com', 'alpha-search@example.com']);
    const first = await developers.search({ q: '-search@' }, { limit: 1 });
    const second = await developers.search({ q: '-search@' }, { limit: 1, cursor: first.nextCursor ?? undefined });
    expect([...first.items, ...second.items].map((d) => d.email)).toEqual(['beta-search@example.com', 'alpha-search@example.com']);
  });
});
