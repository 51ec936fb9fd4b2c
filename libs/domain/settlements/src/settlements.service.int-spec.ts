import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DevelopersModule, DevelopersService } from '@gateway/domain/developers';
import { IdentityModule, UsersService } from '@gateway/domain/identity';
import { LedgerService, paymentSuccessLines } from '@gateway/domain/ledger';
import { assertLedgerInvariants } from '@gateway/domain/ledger/testing';
import { PaymentProvider, type ProviderTransfer } from '@gateway/provider';
import { Amount, ConfigModule, type DeveloperContext, DomainError, type ManualClock } from '@gateway/platform';
import { createDomainTestContext, testConfig } from '@gateway/platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SettlementPayoutsService } from './settlement-payouts.service';
import { SettlementsModule } from './settlements.module';
import { SettlementsService } from './settlements.service';

/**
 * Settlements on a real PostgreSQL, the provider stood in for: it pays a payout at once unless a
 * test says otherwise, and counts the payouts it was asked for.
 */
describe('SettlementsService (approval rules and payouts)', () => {
  let app: INestApplicationContext;
  let clock: ManualClock;
  let dataSource: DataSource;
  let settlements: SettlementsService;
  let payouts: SettlementPayoutsService;
  let provider: PaymentProvider;
  let paidOut: string[];
  const known = new Map<string, ProviderTransfer>();

  beforeAll(async () => {
    ({ app, clock } = await createDomainTestContext([ConfigModule.forRoot(testConfig({ SETTLEMENT_TWO_PERSON_THRESHOLD: 'NGN:5000' })), DevelopersModule, IdentityModule, SettlementsModule]));
    dataSource = app.get<DataSource>(getDataSourceToken());
    settlements = app.get(SettlementsService);
    payouts = app.get(SettlementPayoutsService);
    provider = app.get(PaymentProvider, { strict: false });
  });
  beforeEach(() => {
    paidOut = [];
    known.clear();
    jest.spyOn(provider, 'createTransferRecipient').mockImplementation(async (_mode, input) => ({
      providerRecipientCode: 'RCP_provider',
      accountName: input.name,
      accountNumber: input.accountNumber,
      bankCode: input.bankCode,
      bankName: 'Test Bank',
    }));
    jest.spyOn(provider, 'initiateTransfer').mockImplementation(async (_mode, input) => {
      paidOut.push(input.reference);
      const transfer: ProviderTransfer = { providerTransferCode: `TRF_${paidOut.length}`, reference: input.reference, status: 'success', amount: input.amount, currency: input.currency, failureReason: null, transferredAt: null };
      known.set(input.reference, transfer);
      return transfer;
    });
    jest.spyOn(provider, 'verifyTransfer').mockImplementation(async (_mode, reference) => known.get(reference) ?? null);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await assertLedgerInvariants(dataSource);
    await app.close();
  });

  /** An account with a settlement bank account, `funds` available in live mode, and a member who asks. */
  async function account(funds: number): Promise<{ ctx: DeveloperContext; requester: { userId: string; ip: string } }> {
    const developers = app.get(DevelopersService);
    const developer = await developers.create({ email: `settle-${randomUUID()}@example.com`, name: 'Settles', identityVerified: true });
    await developers.setSettlementAccount(developer.id, { bankCode: '058', accountNumber: '0123456789', accountName: 'ADA LOVELACE' });
    const ctx: DeveloperContext = { developerId: developer.id, mode: 'live' };
    await dataSource.transaction((manager) =>
      app.get(LedgerService).post(manager, ctx, {
        currency: 'NGN',
        sourceType: 'test_funding',
        sourceId: randomUUID(),
        kind: 'success',
        reference: 'funding',
        lines: paymentSuccessLines({ amount: Amount.parse(funds), platformFee: Amount.zero(), providerFee: Amount.zero() }),
      }),
    );
    return { ctx, requester: { userId: await staff('member'), ip: '198.51.100.7' } };
  }
  const staff = async (tag: string) =>
    (await app.get(UsersService).createPlatformUser({ email: `${tag}-${randomUUID()}@example.com`, name: tag, password: 'correct horse battery staple', platformRole: 'admin' })).id;
  const available = async (ctx: DeveloperContext) => (await app.get(LedgerService).balance(ctx, 'NGN')).available.toString();

  it('refuses the person who asked as its approver, and takes the approval of another', async () => {
    const { ctx, requester } = await account(10_000);
    const settlement = await settlements.request(ctx, { amount: 2000 }, requester);
    await expect(settlements.approve(settlement.reference, requester)).rejects.toMatchObject({ code: 'insufficient_role' });
    expect((await settlements.getAny(settlement.reference)).status).toBe('pending_approval');

    const approved = await settlements.approve(settlement.reference, { userId: await staff('approver'), ip: '203.0.113.9' });
    expect(approved.status).toBe('completed');
    expect(paidOut).toEqual([settlement.reference]);
    const decisions = await settlements.decisionsOf([settlement.id]);
    expect(decisions.map((d) => [d.decision, d.ip])).toEqual([['approve', '203.0.113.9']]);
    expect(await available(ctx)).toBe('8000.00');
  });

  it('above the two-person threshold: the first approval waits for a second person', async () => {
    const { ctx, requester } = await account(10_000);
    const settlement = await settlements.request(ctx, { amount: 5000.01 }, requester);
    expect(settlement.approvalsRequired).toBe(2);
    const first = await settlements.approve(settlement.reference, { userId: await staff('first'), ip: null });
    expect(first.status).toBe('pending_approval');
    expect(paidOut).toEqual([]);
    expect((await settlements.approve(settlement.reference, { userId: await staff('second'), ip: null })).status).toBe('completed');
    expect(paidOut).toEqual([settlement.reference]);
  });

  it('ten staff approving at once pay the settlement once', async () => {
    const { ctx, requester } = await account(10_000);
    const settlement = await settlements.request(ctx, { amount: 3000 }, requester);
    const approvers: string[] = [];
    for (let i = 0; i < 10; i++) approvers.push(await staff(`racer${i}`)); // one password hash at a time
    const outcomes = await Promise.allSettled(approvers.map((userId) => settlements.approve(settlement.reference, { userId, ip: null })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as DomainError).code).toBe('invalid_state');
    expect(paidOut).toEqual([settlement.reference]);
    expect(await available(ctx)).toBe('7000.00');
  }, 30_000); // ten staff accounts: ten argon2 hashes (64 MiB each), slow on a busy 2-core machine

  it('an approval whose payout got no answer is paid by the reconciliation scan, once', async () => {
    const { ctx, requester } = await account(10_000);
    const settlement = await settlements.request(ctx, { amount: 1200 }, requester);
    jest.spyOn(provider, 'initiateTransfer').mockRejectedValueOnce(new DomainError('gateway_timeout', 'The provider did not answer in time.'));
    expect((await settlements.approve(settlement.reference, { userId: await staff('approver'), ip: null })).status).toBe('processing');

    expect(await payouts.reconcile()).toBe(0); // not stale yet: an answer may still come
    clock.advance(2 * 60_000 + 1);
    await payouts.reconcile();
    expect((await settlements.getAny(settlement.reference)).status).toBe('completed');
    expect(paidOut).toEqual([settlement.reference]);
    clock.advance(2 * 60_000 + 1);
    await payouts.reconcile();
    expect(paidOut).toEqual([settlement.reference]);
    expect(await available(ctx)).toBe('8800.00');
  });

  it('a payout the provider refuses fails the settlement and releases its amount', async () => {
    const { ctx, requester } = await account(10_000);
    const settlement = await settlements.request(ctx, { amount: 4000 }, requester);
    jest.spyOn(provider, 'initiateTransfer').mockImplementationOnce(async (_mode, input) => ({
      providerTransferCode: 'TRF_failed',
      reference: input.reference,
      status: 'failed',
      amount: input.amount,
      currency: input.currency,
      failureReason: 'Could not credit account',
      transferredAt: null,
    }));
    const failed = await settlements.approve(settlement.reference, { userId: await staff('approver'), ip: null });
    expect([failed.status, failed.failureReason]).toEqual(['failed', 'Could not credit account']);
    expect(await available(ctx)).toBe('10000.00');
  });
});
