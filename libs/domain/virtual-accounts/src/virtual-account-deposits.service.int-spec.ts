import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CustomersService } from '@gateway/domain/customers';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { LedgerService } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { VirtualAccountDepositsService } from './virtual-account-deposits.service';
import { VirtualAccountsModule } from './virtual-accounts.module';
import { VirtualAccountsService } from './virtual-accounts.service';

/**
 * Deposits into dedicated accounts on a real PostgreSQL, the provider stood in for: the platform
 * fee is the default ₦10, the provider reports a fee of ₦75.50 on every deposit.
 */
describe('VirtualAccountDepositsService (exactly-once crediting)', () => {
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let deposits: VirtualAccountDepositsService;
  let accounts: VirtualAccountsService;
  let provider: PaymentProvider;
  const verified = new Map<string, ProviderTransaction>();

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ PLATFORM_FEES: 'NGN:10' })), DevelopersModule, VirtualAccountsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    deposits = app.get(VirtualAccountDepositsService);
    accounts = app.get(VirtualAccountsService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    jest.spyOn(provider, 'createDedicatedAccount').mockImplementation(async () => ({
      providerId: String(randomInt(1, 2 ** 31)),
      providerCustomerCode: `CUS_${randomUUID().slice(0, 12)}`,
      accountNumber: String(randomInt(1_000_000_000, 9_999_999_999)),
      accountName: 'GATEWAY / ADA LOVELACE',
      bankName: 'Test Bank',
    }));
    jest.spyOn(provider, 'verifyTransaction').mockImplementation(async (_mode, reference) => verified.get(reference) ?? null);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  async function openAccount(): Promise<{ ctx: DeveloperContext; accountNumber: string }> {
    const developer = await app.get(DevelopersService).create({ email: `va-${randomUUID()}@example.com`, name: 'Virtual accounts' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'test' };
    const customer = await app.get(CustomersService, { strict: false }).create(ctx, { email: `c-${randomUUID().slice(0, 8)}@example.com`, name: 'Ada Lovelace', phone: '+2348012345678' });
    const account = await accounts.create(ctx, customer.reference);
    return { ctx, accountNumber: account.accountNumber };
  }

  /** A deposit as the provider reports (and verifies) it. */
  function providerDeposit(accountNumber: string, amount: string): ProviderTransaction {
    const transaction: ProviderTransaction = {
      providerId: String(randomInt(1, 2 ** 31)),
      reference: `T${randomUUID().replace(/-/g, '').slice(0, 15)}`,
      status: 'success',
      amount: Amount.parse(amount),
      currency: 'NGN',
      fee: Amount.parse('75.50'),
      paidAt: new Date(),
      gatewayResponse: 'Approved',
      authorization: null,
      customerCode: null,
      channel: 'dedicated_nuban',
      bankTransfer: { receiverAccountNumber: accountNumber, senderName: 'Grace Hopper', senderBank: 'Access Bank' },
    };
    verified.set(transaction.reference, transaction);
    return transaction;
  }
  const available = async (ctx: DeveloperContext) => (await app.get(LedgerService, { strict: false }).balance(ctx, 'NGN')).available.toString();
  const rows = async (providerTransactionId: string) =>
    (await dataSource.query(`SELECT developer_id, platform_fee, provider_fee, net_amount FROM virtual_account_deposits WHERE provider_transaction_id = $1`, [providerTransactionId])) as Array<
      Record<string, string | null>
    >;
  const eventCount = async (ctx: DeveloperContext) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM events WHERE developer_id = $1 AND name = 'virtual_account.credited'`, [ctx.developerId]))[0].n);

  it('a deposit of 2,000.00 reported ten times at once is credited once: 2,000.00 − 10.00 − 75.50 = 1,914.50, one event', async () => {
    const { ctx, accountNumber } = await openAccount();
    const deposit = providerDeposit(accountNumber, '2000.00');

    const outcomes = await Promise.all(Array.from({ length: 10 }, () => deposits.onProviderDeposit('test', deposit)));

    expect(outcomes.filter((o) => o.kind === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'recorded_before')).toHaveLength(9);
    expect(await available(ctx)).toBe('1914.50');
    expect(await rows(deposit.providerId)).toEqual([{ developer_id: ctx.developerId, platform_fee: '10.00', provider_fee: '75.50', net_amount: '1914.50' }]);
    expect(await eventCount(ctx)).toBe(1);
  });

  it('a deposit smaller than its fees credits nothing negative: 50.00 pays 50.00 of provider fee and no platform fee', async () => {
    const { ctx, accountNumber } = await openAccount();
    const deposit = { ...providerDeposit(accountNumber, '50.00') };
    await deposits.onProviderDeposit('test', deposit);
    expect(await rows(deposit.providerId)).toEqual([{ developer_id: ctx.developerId, platform_fee: '0.00', provider_fee: '50.00', net_amount: '0.00' }]);
    expect(await available(ctx)).toBe('0.00');
  });

  it('a deposit into a number no account has is recorded once, unmatched, and credits nobody', async () => {
    const deposit = providerDeposit('0000000000', '300.00');
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => deposits.onProviderDeposit('test', deposit)));
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['recorded_before', 'recorded_before', 'recorded_before', 'recorded_before', 'unmatched']);
    expect(await rows(deposit.providerId)).toEqual([{ developer_id: null, platform_fee: null, provider_fee: '75.50', net_amount: null }]);
  });

  it('a callback the provider does not confirm as paid records nothing', async () => {
    const { ctx, accountNumber } = await openAccount();
    const deposit = providerDeposit(accountNumber, '500.00');
    verified.set(deposit.reference, { ...deposit, status: 'pending' });
    expect(await deposits.onProviderDeposit('test', deposit)).toEqual({ kind: 'not_received' });
    expect(await rows(deposit.providerId)).toEqual([]);
    expect(await available(ctx)).toBe('0.00');
  });
});
