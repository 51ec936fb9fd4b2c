import type { INestApplicationContext } from '@nestjs/common';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import type { DeveloperContext } from '@gateway/platform';
import { createDomainTestContext } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import type { NewSubaccount } from './subaccounts.service';
import { SubaccountsModule } from './subaccounts.module';
import { SubaccountsService } from './subaccounts.service';

describe('SubaccountsService', () => {
  let app: INestApplicationContext;
  let subaccounts: SubaccountsService;
  let test: DeveloperContext;
  let otherDeveloper: DeveloperContext;
  let accountSeq = 0;

  const bankAccount = (): NewSubaccount => ({ businessName: 'Vendor Ltd', bankCode: '058', accountNumber: String(1_000_000_000 + accountSeq++) });

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([DevelopersModule, SubaccountsModule]));
    subaccounts = app.get(SubaccountsService);
    const developers = app.get(DevelopersService);
    test = { developerId: (await developers.create({ email: 'subaccounts-int@example.com', name: 'S' })).id, mode: 'test' };
    otherDeveloper = { developerId: (await developers.create({ email: 'subaccounts-int-other@example.com', name: 'O' })).id, mode: 'test' };
  });
  afterAll(() => app.close());

  describe('requireActive', () => {
    it('returns every named sub-account of the developer and mode, by code', async () => {
      const a = await subaccounts.create(test, bankAccount());
      const b = await subaccounts.create(test, bankAccount());
      const found = await subaccounts.requireActive(test, [a.code, b.code, a.code]);
      expect([...found.keys()].sort()).toEqual([a.code, b.code].sort());
      expect(found.get(a.code)?.id).toBe(a.id);
    });

    it('refuses an unknown code at its position in splits', async () => {
      const mine = await subaccounts.create(test, bankAccount());
      await expect(subaccounts.requireActive(test, [mine.code, 'ACCT_zzzzzzzzzz'])).rejects.toMatchObject({
        code: 'validation_error',
        fieldErrors: { 'splits.1.subaccount': [expect.any(String)] },
      });
    });

    it("refuses another developer's code exactly like an unknown one", async () => {
      const theirs = await subaccounts.create(otherDeveloper, bankAccount());
      const refusal = await subaccounts.requireActive(test, [theirs.code]).catch((e: unknown) => e);
      const unknown = await subaccounts.requireActive(test, ['ACCT_zzzzzzzzzz']).catch((e: unknown) => e);
      expect(refusal).toMatchObject({ code: 'validation_error', fieldErrors: { 'splits.0.subaccount': [expect.any(String)] } });
      expect(refusal).toEqual(unknown);
    });

    it("refuses the other mode's code: a live sub-account cannot take test splits", async () => {
      const live = await subaccounts.create({ ...test, mode: 'live' }, bankAccount());
      await expect(subaccounts.requireActive(test, [live.code])).rejects.toMatchObject({
        code: 'validation_error',
        fieldErrors: { 'splits.0.subaccount': [expect.any(String)] },
      });
      await expect(subaccounts.requireActive({ ...test, mode: 'live' }, [live.code])).resolves.toBeInstanceOf(Map);
    });

    it('refuses an inactive sub-account, naming every offending position', async () => {
      const inactive = await subaccounts.create(test, bankAccount());
      const active = await subaccounts.create(test, bankAccount());
      await app.get(DataSource).query('UPDATE subaccounts SET active = false WHERE id = $1', [inactive.id]);
      await expect(subaccounts.requireActive(test, [active.code, inactive.code, 'ACCT_0000000000'])).rejects.toMatchObject({
        code: 'validation_error',
        fieldErrors: { 'splits.1.subaccount': ['this sub-account is inactive'], 'splits.2.subaccount': [expect.any(String)] },
      });
    });

    it("runs inside the caller's transaction when given its manager", async () => {
      const dataSource = app.get(DataSource);
      await dataSource.transaction(async (manager) => {
        const created = await manager.query(
          `INSERT INTO subaccounts (developer_id, mode, code, business_name, bank_code, account_number, created_at)
           VALUES ($1, 'test', 'ACCT_intxn00001', 'Tx Vendor', '058', '2000000001', now()) RETURNING code`,
          [test.developerId],
        );
        const found = await subaccounts.requireActive(test, [created[0].code], manager);
        expect(found.has('ACCT_intxn00001')).toBe(true);
      });
    });
  });

  describe('create', () => {
    it('draws a public ACCT_ code and keeps the full account number on the row', async () => {
      const created = await subaccounts.create(test, { businessName: 'Acme', bankCode: '044', accountNumber: '0123456789', metadata: { k: 'v' } });
      expect(created.code).toMatch(/^ACCT_[a-z0-9]{10}$/);
      expect(created).toMatchObject({ accountNumber: '0123456789', active: true, accountName: null, metadata: { k: 'v' } });
    });

    it('lets exactly one of 10 concurrent creates for one bank account win; the rest get subaccount_exists', async () => {
      const input = { businessName: 'Race', bankCode: '057', accountNumber: '3000000003' };
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => subaccounts.create(test, input)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(r.reason).toMatchObject({ code: 'subaccount_exists' });
      // The same bank account stays free for the other mode and for another developer.
      await expect(subaccounts.create({ ...test, mode: 'live' }, input)).resolves.toBeDefined();
      await expect(subaccounts.create(otherDeveloper, input)).resolves.toBeDefined();
    });

    it('refuses a malformed bank code or account number even when called without the HTTP layer', async () => {
      await expect(subaccounts.create(test, { businessName: 'X', bankCode: '58', accountNumber: '123' })).rejects.toMatchObject({
        code: 'validation_error',
        fieldErrors: { bank_code: [expect.any(String)], account_number: [expect.any(String)] },
      });
    });
  });
});
