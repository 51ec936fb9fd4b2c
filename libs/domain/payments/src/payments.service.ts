import { Inject, Injectable } from '@nestjs/common';
import type { Mode, PaymentResponse, PaymentStatus } from '@gateway/contracts';
import { CustomersService } from '@gateway/domain/customers';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { SubaccountsService } from '@gateway/domain/subaccounts';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { PaymentProvider } from '@gateway/provider';
import {
  Amount,
  allPages,
  APP_CONFIG,
  type AppConfig,
  checkAmount,
  Clock,
  type Currency,
  type DeveloperContext,
  DomainError,
  failpoint,
  inOneStatement,
  inTransaction,
  InvalidShareError,
  isCurrency,
  type Page,
  randomHex,
  READ_THROUGH_PAGE_SIZE,
  parseShares,
} from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { amountLimits } from './payment-config';
import { type PaymentView, toPaymentResponse } from './payment.mapper';
import type { PaymentEntity } from './payment.entity';
import { checkoutIsOpen } from './payment-status';
import type { DailyPaymentVolume, PaidPeriod, PaymentPeriod, PaymentSummary, TopCustomer } from './payment-statistics';
import { insertWithCustomer } from './payment-insert.statement';
import { type NewPayment, type PaymentExportRange, PaymentsRepository } from './payments.repository';
import { SavedCardsService } from './saved-cards.service';

/** A payment as a provider callback needs it: whose it is, and what was paid. */
export interface CallbackPayment {
  id: string;
  developerId: string;
  reference: string;
  status: PaymentStatus;
  amount: Amount;
  currency: Currency;
}

export interface InitializePayment {
  amount: number;
  email: string;
  currency?: string;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
  authorizationCode?: string;
  chargeAt?: string;
  splits?: Array<{ subaccount: string; share: number }>;
}

export interface PaymentListQuery {
  limit: number;
  cursor?: string;
  status?: PaymentStatus;
  currency?: string;
  customerReference?: string;
  from?: string;
  to?: string;
}

/** What a payment intent's capture is credited as: the captured amount of its hold on a saved card. */
export interface CapturePayment {
  reference: string;
  customerId: string;
  email: string;
  amount: Amount;
  currency: Currency;
  metadata: Record<string, unknown>;
  authorizationId: string;
}

/**
 * The key space of an idempotency key stored with a payment: the entry point that was given the
 * key. decisions.md scopes a key by developer + mode + method + route, so the same key sent to
 * initialize and to charge names two payments, and a bulk item's key (`batch:<ref>:<i>`) never
 * meets a merchant's.
 */
export type PaymentKeyScope = 'initialize' | 'charge' | 'batch_item' | 'subscription' | 'invoice';

/** What a payment is created for: a hosted checkout (or a scheduled charge), or charging a saved card now. */
export type PaymentPurpose = 'checkout' | 'charge';

/** A scheduled charge must be set at least this far ahead. */
const MIN_CHARGE_AT_LEAD_MS = 60_000;
/** Runs of initialize's one statement: a customer created concurrently is seen by the next run. */
const CUSTOMER_ATTEMPTS = 3;

/** Payments: initialize, read and list. Confirmation (verify, provider callbacks) is PaymentConfirmationService. */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly cards: SavedCardsService,
    private readonly customers: CustomersService,
    private readonly subaccounts: SubaccountsService,
    private readonly provider: PaymentProvider,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Creates a pending payment and its hosted checkout (or a scheduled charge of a saved card).
   * A retry with the same idempotency key after a provider timeout resumes the same payment: our
   * reference goes to the provider again, and the provider answers with the original checkout.
   * `scope`: the key space of `idempotencyKey` (bulk items pass `batch_item`). `requestedAt`: when
   * the request was accepted, for the charge_at lead time (a bulk item: its batch's creation, so
   * an item accepted with a valid schedule is not refused for being processed later).
   * @throws invalid_currency, capability_not_supported, validation_error, split_shares_exceed_total, invalid_charge_at,
   *         authorization_not_found, idempotency_key_reused, gateway_timeout, provider_error
   */
  async initialize(
    ctx: DeveloperContext,
    input: InitializePayment,
    idempotencyKey?: string,
    scope: PaymentKeyScope = 'initialize',
    requestedAt?: Date,
  ): Promise<PaymentView> {
    const payment = await this.createPayment(ctx, input, idempotencyKey, 'checkout', scope, requestedAt);
    const opened = payment.status === 'pending' && !payment.providerAuthorizationUrl ? await this.openCheckout(payment) : null;
    return opened ?? ((await this.repository.findView(ctx, payment.reference)) as PaymentView);
  }

  /**
   * Everything createPayment checks, without storing anything (bulk batches validate every item
   * before accepting the batch).
   * @throws invalid_currency, capability_not_supported, validation_error, split_shares_exceed_total, invalid_charge_at, authorization_not_found
   */
  async checkNewPayment(ctx: DeveloperContext, input: InitializePayment, purpose: PaymentPurpose): Promise<void> {
    const currency = parseRequestCurrency(input.currency);
    this.provider.capabilities(ctx.mode).require('payments', currency);
    this.checkRequestAmount(input.amount, currency);
    const splits = parseSplits(input.splits ?? []);
    if (purpose === 'checkout') this.parseSchedule(input, await this.testClocks.now(ctx));
    await this.subaccounts.requireActive(ctx, splits.map((s) => s.subaccount), this.dataSource.manager);
    if (input.authorizationCode) await this.cards.require(ctx, input.authorizationCode, input.email, this.dataSource.manager);
  }

  /**
   * Validates and stores a new payment — for a hosted checkout (`scheduled` when `chargeAt` is
   * given) or for charging a saved card now — or returns the one an earlier request with this
   * idempotency key created in the same key space (`scope`, by default the purpose's endpoint).
   * Nothing is stored when the input is refused.
   * @throws invalid_currency, capability_not_supported, validation_error, split_shares_exceed_total, invalid_charge_at, authorization_not_found,
   *         idempotency_key_reused
   */
  async createPayment(
    ctx: DeveloperContext,
    input: InitializePayment,
    idempotencyKey: string | undefined,
    purpose: PaymentPurpose,
    scope: PaymentKeyScope = purpose === 'charge' ? 'charge' : 'initialize',
    requestedAt?: Date,
  ): Promise<PaymentEntity> {
    const currency = parseRequestCurrency(input.currency);
    // Before anything is written: a currency the mode's provider account does not take payments in.
    this.provider.capabilities(ctx.mode).require('payments', currency);
    const amount = this.checkRequestAmount(input.amount, currency);
    const splits = parseSplits(input.splits ?? []);
    // The tenant's time (a test clock may run ahead): charge_at's lead and the abandonment delay count from it.
    // A plain checkout (no splits, no saved card, so no charge_at) is one statement, which moves
    // the real time to the tenant's itself: no round trip for the clock here.
    const plain = splits.length === 0 && input.authorizationCode === undefined && input.chargeAt === undefined;
    const now = plain ? this.clock.now() : await this.testClocks.now(ctx);
    const chargeAt = purpose === 'checkout' ? this.parseSchedule(input, requestedAt ?? now) : null;
    const fingerprint = paymentFingerprint(purpose, input, { amount, currency, splits, chargeAt });

    if (idempotencyKey) {
      const existing = await this.repository.findByIdempotencyKey(ctx, scope, idempotencyKey);
      if (existing) return sameRequest(existing, fingerprint);
    }
    const row: Omit<NewPayment, 'customerId' | 'customerReference'> = {
      developerId: ctx.developerId,
      mode: ctx.mode,
      // Also the provider's transaction reference: Paystack allows only alphanumerics and - . = there.
      reference: `PAY-${randomHex(10)}`,
      status: chargeAt ? 'scheduled' : 'pending',
      email: input.email.trim(),
      amount,
      currency,
      callbackUrl: input.callbackUrl ?? null,
      metadata: input.metadata ?? {},
      splits: splits.map((s) => ({ ...s, amount: null })),
      idempotencyKey: idempotencyKey ?? null,
      idempotencyScope: idempotencyKey ? scope : null,
      requestHash: fingerprint,
      authorizationId: null,
      chargeAt,
      // On the plain path the real time: its statement adds the test clock's offset (payment-insert.statement.ts).
      createdAt: now,
    };
    // A plain checkout is one statement; splits and saved cards are checked first, in a transaction.
    const inserted = plain
      ? await this.insertWithCustomer(ctx, input.email, row)
      : await inTransaction(this.dataSource, async (manager) => {
          await this.subaccounts.requireActive(ctx, splits.map((s) => s.subaccount), manager);
          const authorization = input.authorizationCode ? await this.cards.require(ctx, input.authorizationCode, input.email, manager) : null;
          const { customer } = await this.customers.findOrCreateByEmail(ctx, input.email, manager);
          return this.repository.insert(manager, { ...row, customerId: customer.id, customerReference: customer.reference, authorizationId: authorization?.id ?? null });
        });
    // Null: lost a race with a concurrent request carrying the same key; continue with its payment
    // (ON CONFLICT waited for it to commit, so a read now sees it).
    if (!inserted && !idempotencyKey) throw new Error('payment insert ignored without an idempotency key (reference collision)');
    const payment = inserted ?? (idempotencyKey ? await this.repository.findByIdempotencyKey(ctx, scope, idempotencyKey) : null);
    if (!payment) throw new Error('payment vanished after insert');
    return sameRequest(payment, fingerprint);
  }

  /**
   * The payment and its customer (found by e-mail, or created with its event) in one statement
   * (payment-insert.statement.ts); null when the idempotency key was taken meanwhile.
   */
  private async insertWithCustomer(ctx: DeveloperContext, email: string, row: Omit<NewPayment, 'customerId' | 'customerReference'>): Promise<PaymentEntity | null> {
    for (let attempt = 1; attempt <= CUSTOMER_ATTEMPTS; attempt++) {
      const customer = this.customers.findOrCreateByEmailInStatement(ctx, email);
      const result = await inOneStatement(() => insertWithCustomer(this.repository.manager, customer, row));
      this.customers.afterStatement(result.fanOut);
      // Customer not seen: inserted by a concurrent request after the statement's snapshot; the next run sees it.
      if (result.payment || result.customerSeen) return result.payment;
    }
    throw new Error(`customer for ${ctx.mode} payment neither found nor created after ${CUSTOMER_ATTEMPTS} attempts`);
  }

  /**
   * The payment a payment intent's capture is credited through, under the intent's reference (the
   * reference the provider knows the captured transaction by): created on the first call, the same
   * one on every later call. `manager`: the caller's transaction, holding the intent's row lock.
   */
  async paymentForCapture(manager: EntityManager, ctx: DeveloperContext, capture: CapturePayment): Promise<PaymentEntity> {
    const existing = await this.repository.findView(ctx, capture.reference, manager);
    if (existing) return existing.payment;
    const now = this.clock.now();
    const customer = await this.customers.getById(ctx, capture.customerId, manager);
    const payment =
      (await this.repository.insert(manager, {
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: capture.reference,
        status: 'pending',
        customerId: capture.customerId,
        customerReference: customer.reference,
        email: capture.email,
        amount: capture.amount,
        currency: capture.currency,
        callbackUrl: null,
        metadata: capture.metadata,
        splits: [],
        idempotencyKey: null,
        idempotencyScope: null,
        requestHash: null,
        authorizationId: capture.authorizationId,
        chargeAt: null,
        createdAt: now,
      })) ?? (await this.repository.findView(ctx, capture.reference, manager))?.payment;
    if (!payment) throw new Error(`payment intent ${capture.reference}: its payment could not be created`);
    return payment;
  }

  /**
   * The payment a provider callback names (disputes), whose tenant the callback does not know:
   * null when no payment of that mode has the reference (not ours).
   */
  async findForProviderCallback(mode: Mode, reference: string): Promise<CallbackPayment | null> {
    const payment = await this.repository.findByReference(mode, reference);
    return payment && { id: payment.id, developerId: payment.developerId, reference: payment.reference, status: payment.status, amount: payment.amount, currency: payment.currency };
  }

  /** @throws payment_not_found (also for another developer's or the other mode's payment) */
  async get(ctx: DeveloperContext, reference: string): Promise<PaymentView> {
    const view = await this.repository.findView(ctx, reference);
    if (!view) throw new DomainError('payment_not_found', 'No such payment.');
    return view;
  }

  /** @throws validation_error, invalid_currency, customer_not_found (customer filter) */
  async list(ctx: DeveloperContext, query: PaymentListQuery): Promise<Page<PaymentView>> {
    const customerId = query.customerReference ? (await this.customers.get(ctx, query.customerReference)).id : undefined;
    return this.repository.list(ctx, {
      limit: query.limit,
      cursor: query.cursor,
      status: query.status,
      currency: query.currency === undefined ? undefined : parseRequestCurrency(query.currency),
      customerId,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
  }

  /**
   * Exports (docs/exports.md): every payment created in [from, to) that the filters keep, exactly as
   * the list returns them — same order (newest first), same wire form — read a page at a time.
   */
  exportRows(ctx: DeveloperContext, range: PaymentExportRange): AsyncGenerator<PaymentResponse> {
    return allPages((cursor) => this.repository.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), (view) => toPaymentResponse(view, this.config.api.publicBaseUrl));
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: PaymentExportRange): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /** Per currency: successful count and exact sum, failed or abandoned count, of the payments created in the period. */
  summarize(ctx: DeveloperContext, period: PaymentPeriod): Promise<PaymentSummary[]> {
    return this.repository.summarize(ctx, period);
  }

  /** Successful payments per UTC day and currency in the period (days without any are absent). */
  dailyVolume(ctx: DeveloperContext, period: PaymentPeriod): Promise<DailyPaymentVolume[]> {
    return this.repository.dailyVolume(ctx, period);
  }

  /**
   * Per currency, the customers with the largest successful volume paid in the UTC days [from, to]
   * (at most `limit` each, largest first): the analytics summary's top customers.
   */
  topCustomers(ctx: DeveloperContext, period: PaidPeriod, limit = 5): Promise<TopCustomer[]> {
    return this.repository.topCustomers(ctx, period, limit);
  }

  /** "Now" for this tenant: a test-mode account's test clock may be ahead of real time (live: real time). */
  now(ctx: DeveloperContext): Promise<Date> {
    return this.testClocks.now(ctx);
  }

  /** Where the customer pays: the provider's page while the checkout is open (see checkoutIsOpen); null otherwise. */
  async checkoutDestination(reference: string): Promise<string | null> {
    const payment = await this.repository.findCheckout(reference);
    return payment && checkoutIsOpen(payment) ? payment.providerAuthorizationUrl : null;
  }

  /** The payment as GET shows it, with its checkout. */
  private async openCheckout(payment: PaymentEntity): Promise<PaymentView | null> {
    const checkout = await this.provider.initializeTransaction(payment.mode, {
      reference: payment.reference,
      email: payment.email,
      amount: payment.amount,
      currency: payment.currency,
      callbackUrl: payment.callbackUrl ?? undefined,
    });
    failpoint('provider.after-call');
    return this.repository.recordProviderCheckout(payment.id, {
      providerAccessCode: checkout.accessCode,
      providerAuthorizationUrl: checkout.authorizationUrl,
      updatedAt: this.clock.now(),
    });
  }

  /**
   * A requested amount in `currency`, checked against the configured limits (payments and holds alike).
   * @throws validation_error
   */
  checkRequestAmount(input: number, currency: Currency): Amount {
    const check = checkAmount(input, currency, amountLimits(this.config));
    if (!check.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [check.message] });
    return check.amount;
  }

  /**
   * The schedule of a checkout request. charge_at itself is checked first: a date in the past, too
   * close or not in UTC is `invalid_charge_at` (the spec's code for it) even when the saved card is
   * missing too; only a valid charge_at without authorization_code is a `validation_error`.
   * @throws invalid_charge_at, validation_error
   */
  private parseSchedule(input: InitializePayment, requestedAt: Date): Date | null {
    if (input.chargeAt === undefined) {
      if (input.authorizationCode !== undefined) {
        throw new DomainError('validation_error', 'authorization_code schedules a charge: send charge_at with it (or use POST /payments/charge/ to charge now).', {
          charge_at: ['is required with authorization_code'],
        });
      }
      return null;
    }
    if (!/(Z|[+-]00:?00)$/.test(input.chargeAt)) {
      throw new DomainError('invalid_charge_at', 'charge_at must be a UTC date-time (ending in Z).');
    }
    const chargeAt = new Date(input.chargeAt);
    if (Number.isNaN(chargeAt.getTime())) throw new DomainError('invalid_charge_at', 'charge_at must be an ISO 8601 UTC date-time.');
    if (chargeAt.getTime() - requestedAt.getTime() <= MIN_CHARGE_AT_LEAD_MS) {
      throw new DomainError('invalid_charge_at', 'charge_at must be more than 60 seconds in the future.');
    }
    if (input.authorizationCode === undefined) {
      throw new DomainError('validation_error', 'A scheduled charge needs the saved card to charge.', { authorization_code: ['is required with charge_at'] });
    }
    return chargeAt;
  }

}

/** @throws invalid_currency */
export function parseRequestCurrency(value: string | undefined): Currency {
  const currency = value ?? 'NGN';
  if (!isCurrency(currency)) throw new DomainError('invalid_currency', `Currency ${String(value)} is not supported: use NGN, USD, GBP or KES.`);
  return currency;
}

/**
 * SHA-256 of the canonical JSON of the request as validated: what the payment was created for.
 * Parsed values (amount in its exact form, shares normalised, charge_at as an instant, e-mail
 * case-insensitive, metadata with its keys sorted), so a retry that merely re-serialises the same
 * request matches, and any change in what would be charged, split, scheduled, stored or sent back
 * does not.
 */
function paymentFingerprint(
  purpose: PaymentPurpose,
  input: InitializePayment,
  parsed: { amount: Amount; currency: Currency; splits: Array<{ subaccount: string; share: string }>; chargeAt: Date | null },
): string {
  return requestFingerprint({
    purpose,
    amount: parsed.amount.toString(),
    currency: parsed.currency,
    email: input.email.trim().toLowerCase(),
    callback_url: input.callbackUrl ?? null,
    metadata: input.metadata ?? {},
    authorization_code: input.authorizationCode ?? null,
    charge_at: parsed.chargeAt?.toISOString() ?? null,
    splits: parsed.splits,
  });
}

/**
 * A retry under an idempotency key (after a 504, which the HTTP idempotency layer does not store)
 * resumes the key's payment only as the same request.
 * @throws idempotency_key_reused
 */
function sameRequest(payment: PaymentEntity, fingerprint: string): PaymentEntity {
  if (payment.requestHash !== fingerprint) {
    throw new DomainError('idempotency_key_reused', 'This idempotency key was used for a different payment; use a new key for a new payment.');
  }
  return payment;
}

/** @throws validation_error, split_shares_exceed_total */
export function parseSplits(splits: Array<{ subaccount: string; share: number }>): Array<{ subaccount: string; share: string }> {
  const seen = new Set<string>();
  splits.forEach((split, i) => {
    if (seen.has(split.subaccount)) {
      throw new DomainError('validation_error', 'Each sub-account may appear once in splits.', { [`splits.${i}.subaccount`]: ['appears more than once'] });
    }
    seen.add(split.subaccount);
  });
  try {
    return parseShares(splits.map((s) => s.share)).map((share, i) => ({ subaccount: splits[i].subaccount, share: share.toString() }));
  } catch (error) {
    if (!(error instanceof InvalidShareError)) throw error;
    if (error.reason === 'sum-above-one') throw new DomainError('split_shares_exceed_total', 'The split shares add up to more than 1.0.');
    const index = /shares\[(\d+)\]/.exec(error.message)?.[1] ?? '0';
    throw new DomainError('validation_error', 'A split share is not valid.', { [`splits.${index}.share`]: [error.message.replace(/^shares\[\d+\]: /, '')] });
  }
}
