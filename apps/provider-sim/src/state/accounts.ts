import { AuthorizationStore } from './authorizations';
import { CustomerStore } from './customers';
import { DedicatedAccountStore } from './dedicated-accounts';
import { DisputeStore } from './disputes';
import { HoldRecord, HoldStore } from './holds';
import { IdempotencyStore } from './idempotency';
import { RefundStore } from './refunds';
import { TransactionRecord, TransactionStore } from './transactions';
import { RecipientStore, TransferStore } from './transfers';

export type Domain = 'test' | 'live';

/**
 * Everything the provider knows about one merchant account. State is
 * partitioned per secret key — like a real provider's test and live modes,
 * an object created with one key does not exist for another.
 */
export class Account {
  readonly customers = new CustomerStore();
  readonly transactions = new TransactionStore();
  readonly authorizations = new AuthorizationStore();
  readonly holds = new HoldStore();
  readonly refunds = new RefundStore();
  readonly recipients = new RecipientStore();
  readonly transfers = new TransferStore();
  readonly dedicatedAccounts = new DedicatedAccountStore();
  readonly disputes = new DisputeStore();
  readonly idempotency = new IdempotencyStore();
  /**
   * Cancels the scheduled automatic completion of a pending transfer/refund, keyed "transfer:<ref>" /
   * "refund:<id>", or the scheduled reversal of a transfer, "transfer-reversal:<ref>".
   */
  readonly scheduledCompletions = new Map<string, () => void>();

  constructor(
    /** Also the HMAC key for this account's callbacks. */
    readonly secretKey: string,
    readonly integrationId: number,
    readonly domain: Domain,
  ) {}
}

/** A live key is recognised by Paystack's naming (sk_live_…) or a `_live_` segment (sk_sim_live_secret). */
export function domainOfSecret(secretKey: string): Domain {
  return /^sk_live_|_live_/.test(secretKey) ? 'live' : 'test';
}

export class AccountRegistry {
  private accounts = new Map<string, Account>();
  /** Hosted checkout pages are opened without a secret, so access codes are indexed across accounts. */
  private accessCodes = new Map<string, { account: Account; reference: string }>();

  constructor(private readonly secretKeys: readonly string[]) {
    this.reset();
  }

  bySecret(secretKey: string): Account | undefined {
    return this.accounts.get(secretKey);
  }

  all(): Account[] {
    return [...this.accounts.values()];
  }

  registerAccessCode(accessCode: string, account: Account, reference: string): void {
    this.accessCodes.set(accessCode, { account, reference });
  }

  findByAccessCode(accessCode: string): { account: Account; transaction: TransactionRecord } | undefined {
    const entry = this.accessCodes.get(accessCode);
    const transaction = entry?.account.transactions.findByReference(entry.reference);
    return entry && transaction ? { account: entry.account, transaction } : undefined;
  }

  /** The authorize-only checkout (a hold) opened under this access code. */
  findHoldByAccessCode(accessCode: string): { account: Account; hold: HoldRecord } | undefined {
    const entry = this.accessCodes.get(accessCode);
    const hold = entry?.account.holds.find(entry.reference);
    return entry && hold && hold.accessCode === accessCode ? { account: entry.account, hold } : undefined;
  }

  /** Forget every object of every account (the caller cancels pending timers first). */
  reset(): void {
    this.accounts = new Map(
      this.secretKeys.map((secretKey, index) => [
        secretKey,
        new Account(secretKey, 100_001 + index, domainOfSecret(secretKey)),
      ]),
    );
    this.accessCodes = new Map();
  }
}
