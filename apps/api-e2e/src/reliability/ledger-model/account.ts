import { UsersService } from '@gateway/domain/identity';
import { SettlementsService, type SettlementActor } from '@gateway/domain/settlements';
import { randomBytes } from 'node:crypto';
import { http, type HttpResult } from '../../support/http';
import { createMerchant } from '../../support/merchants';
import type { PaymentsHarness } from '../../support/payments';
import { PORTAL_PASSWORD } from '../../support/portal-client';
import { Books } from './books';
import type { Mode } from './model';

/** The simulator's account numbers with a fixed payout outcome (docs/provider-simulator.md). */
export const PAYOUT_ACCOUNTS = { paid: null, failed: '0000000000', reversed: '0000000002' } as const;
export type PayoutOutcome = keyof typeof PAYOUT_ACCOUNTS;

/** Staff who request and approve settlements: made once per file (password hashing is slow), shared by every run. */
export interface SettlementStaff {
  requester: SettlementActor;
  /** Two approvers: above SETTLEMENT_TWO_PERSON_THRESHOLD both are needed. */
  approvers: [SettlementActor, SettlementActor];
}

export async function createSettlementStaff(h: PaymentsHarness): Promise<SettlementStaff> {
  const users = h.gateway.app.get(UsersService, { strict: false });
  const staff = async (role: 'admin' | 'financial_secretary') =>
    (await users.createPlatformUser({ email: `ledger-model-${role}-${randomBytes(5).toString('hex')}@example.com`, name: role, password: PORTAL_PASSWORD, platformRole: role })).id;
  const actor = async (role: 'admin' | 'financial_secretary'): Promise<SettlementActor> => ({ userId: await staff(role), ip: '127.0.0.1' });
  return { requester: await actor('admin'), approvers: [await actor('financial_secretary'), await actor('admin')] };
}

/**
 * The real side of one model run: a developer account made fresh for the run (so a replay while
 * shrinking never meets an earlier run's money), with test and live secret keys, sub-accounts in
 * each mode, a dedicated virtual account, saved payout recipients with each outcome the simulator
 * knows, and a settlement bank account.
 */
export class LedgerRun {
  readonly books: Books;
  private constructor(
    readonly h: PaymentsHarness,
    readonly developerId: string,
    private readonly keys: Record<Mode, string>,
    readonly subaccounts: Record<Mode, string[]>,
    readonly virtualAccountId: string,
    readonly recipients: Record<PayoutOutcome, string>,
    readonly staff: SettlementStaff,
  ) {
    this.books = new Books(h, developerId);
  }

  static async open(h: PaymentsHarness, staff: SettlementStaff): Promise<LedgerRun> {
    const merchant = await createMerchant(h.gateway, { identityVerified: true });
    const keys: Record<Mode, string> = { test: merchant.key, live: (await merchant.issueKey({ mode: 'live' })).key };
    const api = (mode: Mode, method: string, path: string, body?: unknown) => expectOk(http(h.gateway.baseUrl, method, `/api/v1${path}`, { token: keys[mode], body }));
    const subaccount = async (mode: Mode) =>
      (await api(mode, 'POST', '/subaccounts', { business_name: 'Split Partner', bank_code: '058', account_number: accountNumber() })).body.data.code as string;
    const subaccounts = { test: [await subaccount('test'), await subaccount('test')], live: [await subaccount('live')] };
    const customer = await api('test', 'POST', '/customers', { email: `ledger-model-${randomBytes(5).toString('hex')}@example.com`, name: 'Ada Lovelace', phone: '+2348012345678' });
    const virtualAccount = await api('test', 'POST', '/virtual-accounts', { customer_reference: customer.body.data.reference });
    const recipient = async (number: string | null) =>
      (await api('live', 'POST', '/transfers/recipients', { bank_code: '058', account_number: number ?? accountNumber() })).body.data.recipient_code as string;
    const recipients = { paid: await recipient(PAYOUT_ACCOUNTS.paid), failed: await recipient(PAYOUT_ACCOUNTS.failed), reversed: await recipient(PAYOUT_ACCOUNTS.reversed) };
    const run = new LedgerRun(h, merchant.developerId, keys, subaccounts, virtualAccount.body.data.id as string, recipients, staff);
    await run.setSettlementAccount(false);
    await run.books.start();
    return run;
  }

  key(mode: Mode): string {
    return this.keys[mode];
  }

  api(mode: Mode, method: string, path: string, body?: unknown): Promise<HttpResult> {
    return http(this.h.gateway.baseUrl, method, `/api/v1${path}`, { token: this.keys[mode], body });
  }

  /** The simulator's own controls (paying a live checkout as the customer would), with the mode's provider secret. */
  sim(mode: Mode, method: string, path: string, body?: unknown): Promise<HttpResult> {
    return http(this.h.sim.url() as string, method, path, { token: this.h.secrets[mode], body });
  }

  get settlements(): SettlementsService {
    return this.h.gateway.app.get(SettlementsService, { strict: false });
  }

  /** Registers where settlements go (resolved at the bank through the live provider, as the portal does). */
  async setSettlementAccount(failing: boolean): Promise<void> {
    await this.settlements.setAccount(
      this.developerId,
      { bankCode: '058', accountNumber: failing ? (PAYOUT_ACCOUNTS.failed as string) : accountNumber() },
      { type: 'user', id: this.staff.requester.userId, label: null, ip: '127.0.0.1' },
    );
  }

  async close(): Promise<void> {
    await this.books.close();
  }
}

/** A 10-digit NUBAN of its own that the simulator pays (not one of its magic numbers). */
function accountNumber(): string {
  return `1${String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000n).padStart(9, '0')}`;
}

async function expectOk(pending: Promise<HttpResult>): Promise<HttpResult> {
  const result = await pending;
  if (result.status >= 300) throw new Error(`setting up the run's account: ${result.status} ${result.text}`);
  return result;
}
