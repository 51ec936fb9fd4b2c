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
    await developers.setFeeOverride(dev.id, 'NGN', Amount.zero());
    expect((await developers.feeOverride(dev.id, 'NGN'))?.toString()).toBe('0.00');
    await developers.setFeeOverride(dev.id, 'NGN', Amount.parse('12.5'));
    expect((await developers.feeOverride(dev.id, 'NGN'))?.toString()).toBe('12.50');
  });

  it('refuses a negative fee and an unknown developer', async () => {
    const dev = await developers.create({ email: 'neg-fee@example.com', name: 'Neg' });
    await expect(developers.setFeeOverride(dev.id, 'USD', Amount.parse('-1'))).rejects.toMatchObject({ code: 'validation_error' });
    await expect(developers.get('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ code: 'developer_not_found' });
  });

  it('verifies identity once and keeps the first verification time', async () => {
    const dev = await developers.create({ email: 'idv@example.com', name: 'Idv' });
    const first = await developers.verifyIdentity(dev.id);
    const again = await developers.verifyIdentity(dev.id);
    expect(first.identityVerifiedAt).not.toBeNull();
    expect(again.identityVerifiedAt?.getTime()).toBe(first.identityVerifiedAt?.getTime());
  });
});
