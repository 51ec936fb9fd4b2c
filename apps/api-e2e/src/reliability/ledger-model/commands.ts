import { DevelopersService } from '@gateway/domain/developers';
import { Amount, DomainError } from '@gateway/platform';
import { types } from 'node:util';
import * as fc from 'fast-check';
import type { HttpResult } from '../../support/http';
import { buyer } from '../../support/payments';
import type { LedgerRun, PayoutOutcome } from './account';
import { type Currency, formatMinor, type LedgerModel, MAXIMUM, MINIMUM, type Mode, type ModelSplit } from './model';

type LedgerCommand = fc.AsyncCommand<LedgerModel, LedgerRun>;
type Touched = Array<{ mode: Mode; currency: Currency }>;

const wire = (minor: bigint): number => Amount.fromMinor(minor).toNumber();
const fromWire = (value: unknown): bigint => Amount.parse(String(value)).toMinor();

/** The answer the model predicts, or a description of how the real one differs. */
function expectAnswer(operation: string, result: HttpResult, status: number, code?: string): void {
  if (result.status !== status || (code !== undefined && result.body?.code !== code)) {
    throw new Error(`${operation}: expected ${status}${code ? ` ${code}` : ''}, got ${result.status} ${result.text.slice(0, 400)}`);
  }
}

/** After an operation (`outcome`: what it did, for the report): the provider's callbacks have all been answered, then the books are held against the model. */
async function settled(m: LedgerModel, r: LedgerRun, touched: Touched, outcome: string): Promise<void> {
  await r.h.sim.idle();
  m.count(outcome);
  await r.books.check(m, touched, (mode) => r.key(mode));
}

/** An amount relative to what is there: a fraction (basis points) of it, or just more than it. */
export type RelativeAmount = { kind: 'part'; basisPoints: number } | { kind: 'more' };

function relative(plan: RelativeAmount, of: bigint, floor: bigint): bigint {
  const amount = plan.kind === 'more' ? of + 1n : (of * BigInt(plan.basisPoints)) / 10_000n;
  return amount < floor ? floor : amount > MAXIMUM ? MAXIMUM : amount;
}

const relativeText = (plan: RelativeAmount) => (plan.kind === 'more' ? 'more than' : `${(plan.basisPoints / 100).toFixed(2)} % of`);

/** A hosted-checkout payment, paid (or declined) as the customer would: test mode through the sandbox, live mode at the simulator's checkout then verify. */
export class Pay implements LedgerCommand {
  constructor(
    readonly mode: Mode,
    readonly currency: Currency,
    readonly amount: bigint,
    readonly splits: ReadonlyArray<{ subaccount: number; basisPoints: number }>,
    readonly declined: boolean,
  ) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const splits: ModelSplit[] = this.splits.map((s) => ({ subaccount: r.subaccounts[this.mode][s.subaccount], shareBasisPoints: BigInt(s.basisPoints) }));
    const body = {
      amount: wire(this.amount),
      currency: this.currency,
      email: buyer(),
      ...(splits.length ? { splits: splits.map((s) => ({ subaccount: s.subaccount, share: Number(s.shareBasisPoints) / 10_000 })) } : {}),
    };
    const init = await r.api(this.mode, 'POST', '/payments/initialize', body);
    expectAnswer(`${this}: initialize`, init, 201);
    const reference = init.body.data.reference as string;
    let paid: HttpResult;
    if (this.mode === 'test') {
      paid = await r.api('test', 'POST', `/sandbox/payments/${reference}/complete`, { outcome: this.declined ? 'declined' : 'success' });
    } else {
      expectAnswer(`${this}: the customer pays`, await r.sim('live', 'POST', `/sim/transactions/${reference}/complete`, {}), 200);
      paid = await r.api('live', 'POST', '/payments/verify', { reference });
    }
    expectAnswer(`${this}: complete`, paid, 200);
    const succeeded = !this.declined;
    if (paid.body.data.status !== (succeeded ? 'success' : 'failed')) throw new Error(`${this}: the payment is ${paid.body.data.status}`);
    m.payments.push({ reference, mode: this.mode, currency: this.currency, amount: this.amount, succeeded, refunded: 0n, openDispute: false });
    if (succeeded) {
      const split = m.paymentSucceeded(this.mode, this.currency, this.amount, splits);
      const shown = paid.body.data as { fees: { platform: number; provider: number }; net_amount: number; splits: Array<{ amount: number }> };
      const expected = [split.platformFee, split.providerFee, this.amount - split.platformFee - split.providerFee, ...split.shares].map(formatMinor).join(' ');
      const answered = [shown.fees.platform, shown.fees.provider, shown.net_amount, ...shown.splits.map((s) => s.amount)].map((n) => formatMinor(fromWire(n))).join(' ');
      if (answered !== expected) throw new Error(`${this}: the payment shows fees/net/shares ${answered}, the model ${expected}`);
    }
    await settled(m, r, [{ mode: this.mode, currency: this.currency }], `payment ${this.mode} ${succeeded ? (splits.length ? 'paid, split' : 'paid') : 'declined'}`);
  }

  toString(): string {
    const splits = this.splits.map((s) => `${s.subaccount}:${(s.basisPoints / 10_000).toFixed(4)}`).join(',');
    return `pay(${this.mode} ${this.currency} ${formatMinor(this.amount)}${splits ? ` splits ${splits}` : ''}${this.declined ? ' declined' : ''})`;
  }
}

/** A refund of one of the run's payments: all that is left, a part of it, or more than is left. */
export class Refund implements LedgerCommand {
  constructor(
    readonly pick: number,
    readonly plan: { kind: 'all' } | { kind: 'part'; basisPoints: number } | { kind: 'more' },
  ) {}

  check = (m: Readonly<LedgerModel>) => m.payments.length > 0;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const payment = m.payments[this.pick % m.payments.length];
    const left = payment.amount - payment.refunded;
    const amount = this.plan.kind === 'all' ? left : this.plan.kind === 'more' ? left + 1n : relative({ kind: 'part', basisPoints: this.plan.basisPoints }, left, 1n);
    const answer = await r.api(payment.mode, 'POST', '/refunds', { payment_reference: payment.reference, ...(this.plan.kind === 'all' ? {} : { amount: wire(amount) }) });
    const what = `${this} of ${payment.mode} ${payment.currency} ${formatMinor(payment.amount)} (${formatMinor(left)} left): ${formatMinor(amount)}`;
    let outcome: string;
    if (!payment.succeeded || left === 0n) expectAnswer(what, answer, 409, (outcome = 'invalid_state'));
    else if (amount > left) expectAnswer(what, answer, 400, (outcome = 'validation_error'));
    else if (amount > m.wallet(payment.mode, payment.currency).available) expectAnswer(what, answer, 422, (outcome = 'insufficient_wallet_balance'));
    else {
      expectAnswer(what, answer, 201);
      m.refunded(payment, amount);
      outcome = 'made';
    }
    await settled(m, r, [{ mode: payment.mode, currency: payment.currency }], `refund ${outcome}`);
  }

  toString(): string {
    return `refund(#${this.pick} ${this.plan.kind === 'part' ? `${relativeText(this.plan)} what is left` : this.plan.kind})`;
  }
}

/** A bank transfer into the run's dedicated virtual account (test mode, NGN). */
export class Deposit implements LedgerCommand {
  constructor(readonly amount: bigint) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const answer = await r.api('test', 'POST', `/sandbox/virtual-accounts/${r.virtualAccountId}/deposits`, { amount: wire(this.amount) });
    expectAnswer(`${this}`, answer, 201);
    m.deposited(this.amount);
    await settled(m, r, [{ mode: 'test', currency: 'NGN' }], 'deposit');
  }

  toString(): string {
    return `deposit(${formatMinor(this.amount)})`;
  }
}

/** The customer's bank disputes a successful test payment (one without an undecided dispute). */
export class OpenDispute implements LedgerCommand {
  constructor(readonly pick: number) {}

  private candidates = (m: Readonly<LedgerModel>) => m.payments.filter((p) => p.mode === 'test' && p.succeeded && !p.openDispute);
  check = (m: Readonly<LedgerModel>) => this.candidates(m).length > 0;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const candidates = this.candidates(m);
    const payment = candidates[this.pick % candidates.length];
    const answer = await r.api('test', 'POST', `/sandbox/payments/${payment.reference}/dispute`);
    expectAnswer(`${this} of ${payment.currency} ${formatMinor(payment.amount)}`, answer, 201);
    const dispute = m.disputeOpened(payment, answer.body.data.reference as string);
    const held = fromWire(answer.body.data.amount_held);
    if (held !== dispute.held) throw new Error(`${this}: the gateway holds ${formatMinor(held)}, the model ${formatMinor(dispute.held)}`);
    await settled(m, r, [{ mode: 'test', currency: payment.currency }], `dispute opened, ${held === payment.amount ? 'all' : held === 0n ? 'nothing' : 'part'} held`);
  }

  toString(): string {
    return `openDispute(#${this.pick})`;
  }
}

/** The bank decides an open dispute. */
export class DecideDispute implements LedgerCommand {
  constructor(
    readonly pick: number,
    readonly outcome: 'won' | 'lost',
  ) {}

  check = (m: Readonly<LedgerModel>) => m.openDisputes.length > 0;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const dispute = m.openDisputes[this.pick % m.openDisputes.length];
    const answer = await r.api('test', 'POST', `/sandbox/disputes/${dispute.reference}/resolve`, { outcome: this.outcome });
    expectAnswer(`${this}`, answer, 200);
    m.disputeDecided(dispute, this.outcome);
    await settled(m, r, [{ mode: 'test', currency: dispute.currency }], `dispute ${this.outcome}`);
  }

  toString(): string {
    return `decideDispute(#${this.pick} ${this.outcome})`;
  }
}

/** A live NGN transfer to a saved recipient whose bank pays it, refuses it, or pays then sends it back. */
export class Transfer implements LedgerCommand {
  constructor(
    readonly plan: RelativeAmount,
    readonly outcome: PayoutOutcome,
  ) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const available = m.wallet('live', 'NGN').available;
    const amount = relative(this.plan, available, MINIMUM.NGN);
    const answer = await r.api('live', 'POST', '/transfers', { source: 'wallet', amount: wire(amount), recipient: r.recipients[this.outcome] });
    const what = `${this}: ${formatMinor(amount)} of ${formatMinor(available)}`;
    let outcome: string = this.outcome;
    if (amount > available) expectAnswer(what, answer, 422, (outcome = 'insufficient_wallet_balance'));
    else {
      expectAnswer(what, answer, 201);
      await r.h.sim.idle();
      const transfer = await r.api('live', 'GET', `/transfers/${answer.body.data.reference}`);
      const status = { paid: 'success', failed: 'failed', reversed: 'reversed' }[this.outcome];
      if (transfer.body.data?.status !== status) throw new Error(`${what}: the transfer is ${transfer.body.data?.status}, not ${status}`);
      m.paidOut('NGN', amount, this.outcome === 'paid' ? 'paid' : 'returned');
    }
    await settled(m, r, [{ mode: 'live', currency: 'NGN' }], `transfer ${outcome}`);
  }

  toString(): string {
    return `transfer(${relativeText(this.plan)} available, ${this.outcome})`;
  }
}

/** A withdrawal to the account's own bank account (live NGN), requested and then approved or rejected by staff. */
export class Settle implements LedgerCommand {
  constructor(
    readonly plan: RelativeAmount,
    readonly decision: 'approve' | 'reject',
  ) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    const available = m.wallet('live', 'NGN').available;
    const amount = relative(this.plan, available, MINIMUM.NGN);
    const what = `${this}: ${formatMinor(amount)} of ${formatMinor(available)}`;
    const ctx = { developerId: r.developerId, mode: 'live' as const };
    const requested = await r.settlements.request(ctx, { amount: wire(amount), currency: 'NGN' }, r.staff.requester).catch((error: unknown) => error);
    let outcome = 'insufficient_wallet_balance';
    if (amount > available) {
      if (!(requested instanceof DomainError && requested.code === outcome)) throw new Error(`${what}: expected insufficient_wallet_balance, got ${String(requested)}`);
    } else {
      // isNativeError, not instanceof: the service's errors come from the worker's realm (tools/test/shared-modules-runtime.js).
      if (types.isNativeError(requested) || !requested || typeof requested !== 'object') throw new Error(`${what}: ${String(requested)}`);
      const { reference } = requested as { reference: string };
      let status: string;
      if (this.decision === 'reject') status = (await r.settlements.reject(reference, r.staff.approvers[0], 'not this week')).status;
      else {
        status = (await r.settlements.approve(reference, r.staff.approvers[0])).status;
        if (status === 'pending_approval') status = (await r.settlements.approve(reference, r.staff.approvers[1])).status;
      }
      await r.h.sim.idle();
      status = (await r.settlements.get(ctx, reference)).status;
      const expected = this.decision === 'reject' ? 'rejected' : m.settlementAccountFails ? 'failed' : 'completed';
      if (status !== expected) throw new Error(`${what}: the settlement is ${status}, not ${expected}`);
      m.paidOut('NGN', amount, expected === 'completed' ? 'paid' : 'returned');
      outcome = expected;
    }
    await settled(m, r, [{ mode: 'live', currency: 'NGN' }], `settlement ${outcome}`);
  }

  toString(): string {
    return `settle(${relativeText(this.plan)} available, ${this.decision})`;
  }
}

/** The account registers another settlement bank account: one the bank credits, or one it refuses. */
export class ChangeSettlementAccount implements LedgerCommand {
  constructor(readonly failing: boolean) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    await r.setSettlementAccount(this.failing);
    m.settlementAccountFails = this.failing;
    await settled(m, r, [], 'settlement account changed');
  }

  toString(): string {
    return `settlementAccount(${this.failing ? 'refused by its bank' : 'paid by its bank'})`;
  }
}

/** An administrator sets the developer's platform fee for a currency (both modes), as `npm run cli -- fees set` does. */
export class SetPlatformFee implements LedgerCommand {
  constructor(
    readonly currency: Currency,
    readonly fee: bigint,
  ) {}

  check = () => true;

  async run(m: LedgerModel, r: LedgerRun): Promise<void> {
    await r.h.gateway.app.get(DevelopersService, { strict: false }).setFeeOverride(r.developerId, this.currency, Amount.fromMinor(this.fee), 'reliability');
    m.platformFee[this.currency] = this.fee;
    await settled(m, r, [], 'platform fee set');
  }

  toString(): string {
    return `platformFee(${this.currency} ${formatMinor(this.fee)})`;
  }
}

const CURRENCIES: readonly Currency[] = ['NGN', 'USD', 'GBP', 'KES'];

/** Payment amounts: around NGN's ₦2,500 flat-fee threshold and the ₦2,000 cap, ordinary ones, and up to the maximum. */
const paymentAmount = (currency: Currency) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.bigInt({ min: MINIMUM[currency], max: 2_500_00n }) },
    { weight: 1, arbitrary: fc.constantFrom(MINIMUM[currency], 2_499_99n, 2_500_00n, 126_666_66n, 126_666_67n) },
    { weight: 4, arbitrary: fc.bigInt({ min: 2_500_00n, max: 500_000_00n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 500_000_00n, max: MAXIMUM }) },
  );

/** Split shares in basis points summing to at most 1.0, often close to it (the shares then pay the fees' shortfall). */
const splits = (subaccounts: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant([] as number[]) },
    { weight: 3, arbitrary: fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: subaccounts }).filter((s) => s.reduce((a, b) => a + b, 0) <= 10_000) },
    { weight: 1, arbitrary: fc.constantFrom([10_000], [9_999], [5_000, 5_000], [9_990, 10]).filter((s) => s.length <= subaccounts) },
  ).map((shares) => shares.map((basisPoints, subaccount) => ({ subaccount, basisPoints })));

const pay = (mode: Mode, currencies: readonly Currency[], subaccounts: number) =>
  fc
    .constantFrom(...currencies)
    .chain((currency) => fc.tuple(fc.constant(currency), paymentAmount(currency), splits(subaccounts), mode === 'test' ? fc.constantFrom(false, false, false, false, true) : fc.constant(false)))
    .map(([currency, amount, shares, declined]) => new Pay(mode, currency, amount, shares, declined));

const relativeAmount: fc.Arbitrary<RelativeAmount> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 10_000 }).map((basisPoints) => ({ kind: 'part' as const, basisPoints })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'part' as const, basisPoints: 10_000 }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'more' as const }) },
);

/** Every operation of the row, weighted so that money mostly comes in and the rest take it out, often up to the last cent. */
export const ledgerCommands: Array<fc.Arbitrary<LedgerCommand>> = [
  fc.oneof(
    { weight: 24, arbitrary: pay('test', CURRENCIES, 2) },
    { weight: 10, arbitrary: pay('live', ['NGN'], 1) },
    {
      weight: 16,
      arbitrary: fc
        .tuple(
          fc.nat(),
          fc.oneof(
            { weight: 2, arbitrary: fc.constant({ kind: 'all' as const }) },
            { weight: 6, arbitrary: fc.integer({ min: 1, max: 10_000 }).map((basisPoints) => ({ kind: 'part' as const, basisPoints })) },
            { weight: 1, arbitrary: fc.constant({ kind: 'more' as const }) },
          ),
        )
        .map(([pick, plan]) => new Refund(pick, plan)),
    },
    {
      weight: 8,
      arbitrary: fc.oneof(fc.bigInt({ min: 1n, max: 1_000_00n }), fc.bigInt({ min: 1_000_00n, max: 10_000_000_00n })).map((amount) => new Deposit(amount)),
    },
    { weight: 7, arbitrary: fc.nat().map((pick) => new OpenDispute(pick)) },
    { weight: 7, arbitrary: fc.tuple(fc.nat(), fc.constantFrom('won' as const, 'lost' as const)).map(([pick, outcome]) => new DecideDispute(pick, outcome)) },
    { weight: 10, arbitrary: fc.tuple(relativeAmount, fc.constantFrom<PayoutOutcome>('paid', 'paid', 'failed', 'reversed')).map(([plan, outcome]) => new Transfer(plan, outcome)) },
    { weight: 8, arbitrary: fc.tuple(relativeAmount, fc.constantFrom('approve' as const, 'approve' as const, 'reject' as const)).map(([plan, decision]) => new Settle(plan, decision)) },
    { weight: 2, arbitrary: fc.boolean().map((failing) => new ChangeSettlementAccount(failing)) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...CURRENCIES), fc.constantFrom(0n, 1n, 10_00n, 50_50n, 150_00n, 2_500_00n))
        .map(([currency, fee]) => new SetPlatformFee(currency, fee)),
    },
  ),
];
