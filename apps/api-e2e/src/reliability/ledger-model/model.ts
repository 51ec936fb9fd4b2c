/**
 * The ledger model of reliability row 3: what every wallet bucket and every system account of one
 * developer must hold after each operation, computed here from the documented rules alone
 * (docs/payments.md "Fees and net amount" and "Splits", docs/virtual-accounts.md, docs/refunds.md,
 * docs/disputes.md, docs/transfers.md, docs/settlements.md) — never from the gateway's code. All
 * money is bigint minor units (kobo, cents).
 */

export type Mode = 'test' | 'live';
export type Currency = 'NGN' | 'USD' | 'GBP' | 'KES';
export type Bucket = 'available' | 'pending' | 'reserved';
export const BUCKETS: readonly Bucket[] = ['available', 'pending', 'reserved'];

export type Buckets = Record<Bucket, bigint>;

/** The smallest payment (and payout) per currency: PAYMENT_MIN_AMOUNTS' default, in minor units. */
export const MINIMUM: Record<Currency, bigint> = { NGN: 100_00n, KES: 10_00n, USD: 1_00n, GBP: 1_00n };
/** PAYMENT_MAX_AMOUNT's default. */
export const MAXIMUM = 100_000_000_00n;

/**
 * The provider's fee for a payment or a deposit as the simulator publishes it (docs/payments.md,
 * "Fee preview"): NGN 1.5 % + ₦100, the ₦100 waived under ₦2,500, capped at ₦2,000; USD and GBP
 * 3.9 %; KES 2.9 %; the percentage rounded half-up to the cent.
 */
export function providerFee(amount: bigint, currency: Currency): bigint {
  const basisPoints = { NGN: 150n, USD: 390n, GBP: 390n, KES: 290n }[currency];
  let fee = (amount * basisPoints + 5_000n) / 10_000n;
  if (currency === 'NGN') {
    if (amount >= 2_500_00n) fee += 100_00n;
    if (fee > 2_000_00n) fee = 2_000_00n;
  }
  return fee;
}

/** A split instruction as the model holds it: a sub-account code and a share in basis points (0.2500 = 2500). */
export interface ModelSplit {
  subaccount: string;
  shareBasisPoints: bigint;
}

export interface MoneyIn {
  providerFee: bigint;
  platformFee: bigint;
  shares: bigint[];
  /** What stays in the wallet. */
  wallet: bigint;
}

/**
 * Where a successful payment's money goes (docs/payments.md): the provider fee (never more than the
 * amount), the platform fee capped at what the provider fee leaves, each share a fraction of the
 * amount rounded down to the cent, and when shares leave less than the fees the shortfall taken
 * from the shares, last listed first. A deposit is the same without shares.
 */
export function moneyIn(amount: bigint, currency: Currency, platformFeeSetting: bigint, splits: readonly ModelSplit[] = []): MoneyIn {
  const provider = min(providerFee(amount, currency), amount);
  const platform = min(platformFeeSetting, amount - provider);
  const net = amount - provider - platform;
  const shares = splits.map((s) => (amount * s.shareBasisPoints) / 10_000n);
  let shortfall = sum(shares) - net;
  for (let i = shares.length - 1; i >= 0 && shortfall > 0n; i--) {
    const taken = min(shares[i], shortfall);
    shares[i] -= taken;
    shortfall -= taken;
  }
  return { providerFee: provider, platformFee: platform, shares, wallet: net - sum(shares) };
}

export interface ModelPayment {
  reference: string;
  mode: Mode;
  currency: Currency;
  amount: bigint;
  succeeded: boolean;
  refunded: bigint;
  /** A dispute the bank has not decided yet (the provider refuses a second one meanwhile). */
  openDispute: boolean;
}

export interface ModelDispute {
  reference: string;
  paymentReference: string;
  currency: Currency;
  held: bigint;
}

/** One developer's books as the rules say they must be. */
export class LedgerModel {
  readonly wallets = new Map<string, Buckets>();
  /** System accounts (`provider_clearing`, `platform_fees`, `subaccount:ACCT_…`, …) by `mode:currency:account`. */
  readonly accounts = new Map<string, bigint>();
  /**
   * The platform fee setting per currency, for both modes: PLATFORM_FEES' default (NGN 10, others
   * 0) until an administrator sets the developer's override.
   */
  readonly platformFee: Record<Currency, bigint> = { NGN: 10_00n, USD: 0n, GBP: 0n, KES: 0n };
  readonly payments: ModelPayment[] = [];
  readonly openDisputes: ModelDispute[] = [];
  /** Whether the registered settlement account is one the bank refuses to credit. */
  settlementAccountFails = false;
  /** Operations run so far, by what they did (for the report). */
  readonly tally = new Map<string, number>();

  get operations(): number {
    let total = 0;
    for (const count of this.tally.values()) total += count;
    return total;
  }

  count(outcome: string): void {
    this.tally.set(outcome, (this.tally.get(outcome) ?? 0) + 1);
  }

  wallet(mode: Mode, currency: Currency): Buckets {
    const key = `${mode}:${currency}`;
    let wallet = this.wallets.get(key);
    if (!wallet) {
      wallet = { available: 0n, pending: 0n, reserved: 0n };
      this.wallets.set(key, wallet);
    }
    return wallet;
  }

  /** Moves `delta` into a system account (negative: out of it). */
  account(mode: Mode, currency: Currency, account: string, delta: bigint): void {
    if (delta === 0n) return;
    const key = `${mode}:${currency}:${account}`;
    this.accounts.set(key, (this.accounts.get(key) ?? 0n) + delta);
  }

  /** A payment succeeded: the wallet keeps the rest after fees and shares. */
  paymentSucceeded(mode: Mode, currency: Currency, amount: bigint, splits: readonly ModelSplit[]): MoneyIn {
    const split = moneyIn(amount, currency, this.platformFee[currency], splits);
    this.wallet(mode, currency).available += split.wallet;
    this.account(mode, currency, 'provider_clearing', -amount);
    this.account(mode, currency, 'provider_fees', split.providerFee);
    this.account(mode, currency, 'platform_fees', split.platformFee);
    splits.forEach((s, i) => this.account(mode, currency, `subaccount:${s.subaccount}`, split.shares[i]));
    return split;
  }

  /** A deposit into the dedicated virtual account (test mode, NGN): fees as for a payment, no shares. */
  deposited(amount: bigint): MoneyIn {
    const split = moneyIn(amount, 'NGN', this.platformFee.NGN);
    this.wallet('test', 'NGN').available += split.wallet;
    this.account('test', 'NGN', 'provider_clearing', -amount);
    this.account('test', 'NGN', 'provider_fees', split.providerFee);
    this.account('test', 'NGN', 'platform_fees', split.platformFee);
    return split;
  }

  /** A refund leaves the available balance back to the provider. */
  refunded(payment: ModelPayment, amount: bigint): void {
    payment.refunded += amount;
    this.wallet(payment.mode, payment.currency).available -= amount;
    this.account(payment.mode, payment.currency, 'provider_clearing', amount);
  }

  /** A dispute holds the disputed amount, or all that is available when that is less. */
  disputeOpened(payment: ModelPayment, reference: string): ModelDispute {
    const wallet = this.wallet(payment.mode, payment.currency);
    const held = min(payment.amount, wallet.available);
    wallet.available -= held;
    wallet.reserved += held;
    payment.openDispute = true;
    const dispute = { reference, paymentReference: payment.reference, currency: payment.currency, held };
    this.openDisputes.push(dispute);
    return dispute;
  }

  /** Won: the hold comes back. Lost: it goes back to the provider. */
  disputeDecided(dispute: ModelDispute, outcome: 'won' | 'lost'): void {
    const wallet = this.wallet('test', dispute.currency);
    wallet.reserved -= dispute.held;
    if (outcome === 'won') wallet.available += dispute.held;
    else this.account('test', dispute.currency, 'provider_clearing', dispute.held);
    this.openDisputes.splice(this.openDisputes.indexOf(dispute), 1);
    const payment = this.payments.find((p) => p.reference === dispute.paymentReference);
    if (payment) payment.openDispute = false;
  }

  /**
   * A payout (transfer or settlement) once the bank's answer is in: paid, it left the wallet for
   * `bank_settlements`; failed or reversed, the wallet holds what it held before.
   */
  paidOut(currency: Currency, amount: bigint, outcome: 'paid' | 'returned'): void {
    if (outcome === 'returned') return;
    this.wallet('live', currency).available -= amount;
    this.account('live', currency, 'bank_settlements', amount);
  }
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, v) => total + v, 0n);
}

/** `12345n` → `"123.45"`. */
export function formatMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
