import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { AnalyticsService, type PaymentOutcomeChange } from '@gateway/domain/analytics';
import { DevelopersService } from '@gateway/domain/developers';
import { EventsService } from '@gateway/domain/webhooks';
import { LedgerService, type Posting, paymentSuccessLines } from '@gateway/domain/ledger';
import { PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, inOneStatement, inTransaction, randomHex, type ServingRequest, tenantOf } from '@gateway/platform';
import { DataSource } from 'typeorm';
import { breakDownPayment } from './payment-breakdown';
import { defaultPlatformFee } from './payment-config';
import { toPaymentResponse, type PaymentView } from './payment.mapper';
import { PaymentOutcomeHooks } from './payment-outcome-hooks';
import type { PaymentEntity } from './payment.entity';
import { succeedInOneStatement } from './payment-success.statement';
import { type NewAuthorization, type PaymentSuccessChanges, PaymentsRepository, type PaymentToVerify, type PreviousOutcome } from './payments.repository';

/** The statuses a success in one statement moves from; a late success (after a decline or an abandonment) takes the transaction path. */
const SETTLE_FROM = ['pending', 'scheduled'] as const;
/** Runs of the one statement: a first credit creates the wallet, a card saved concurrently is seen by the next run. */
const ONE_STATEMENT_ATTEMPTS = 3;

/**
 * Settles a payment from what the provider says about it. Verify, the provider's callbacks, the
 * sandbox and charges of saved cards all end here, so a success is credited by one code path:
 * status, ledger posting and `payment.success` event commit together — in ONE statement on the
 * hot path, in one transaction otherwise — and only the request that moves the status first
 * posts (any number of concurrent verifies credit once).
 */
@Injectable()
export class PaymentConfirmationService {
  private readonly logger = new Logger(PaymentConfirmationService.name);
  /** This instance's verifications asking the provider, by payment id (see verifyFound). */
  private readonly verifying = new Map<string, Promise<PaymentView>>();

  constructor(
    private readonly repository: PaymentsRepository,
    private readonly provider: PaymentProvider,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly developers: DevelopersService,
    private readonly hooks: PaymentOutcomeHooks,
    private readonly analytics: AnalyticsService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Asks the provider about the payment and records the outcome.
   * @throws payment_not_found, gateway_timeout, provider_error
   */
  async verify(ctx: DeveloperContext, reference: string): Promise<PaymentView> {
    const found = await this.repository.findForVerify(ctx, reference);
    if (!found) throw new DomainError('payment_not_found', 'No such payment.');
    return this.verifyFound(ctx, found);
  }

  private async verifyFound(ctx: DeveloperContext, found: PaymentToVerify): Promise<PaymentView> {
    const { payment } = found.view;
    if (nothingToAsk(payment)) return found.view;
    // The provider's callback and the merchant's verify of a hosted checkout usually arrive
    // together. The later one waits for the verification already asking the provider, and takes
    // its answer when that settled the payment; any other answer (still pending, a failure, an
    // error) may predate what the later one was sent about, so it asks the provider itself.
    const running = this.verifying.get(payment.id);
    if (running) {
      const settled = await running.then((view) => (nothingToAsk(view.payment) ? view : null), () => null);
      if (settled) return settled;
    }
    const verification = this.askProvider(ctx, found);
    this.verifying.set(payment.id, verification);
    try {
      return await verification;
    } finally {
      if (this.verifying.get(payment.id) === verification) this.verifying.delete(payment.id);
    }
  }

  private async askProvider(ctx: DeveloperContext, { view, feeOverride }: PaymentToVerify): Promise<PaymentView> {
    const transaction = await this.provider.verifyTransaction(ctx.mode, view.payment.reference);
    if (!transaction) return view;
    return this.apply(ctx, view.payment, transaction, { feeOverride });
  }

  /**
   * The payment a provider callback about a charge names, read before the callback is claimed;
   * null when this mode has none. `settled`: nothing is left for a callback to do — the payment is
   * final (verify, or another delivery, credited it) or a scheduled charge not yet handed to the
   * provider — so the callback can be acknowledged without a claim, and without a write.
   */
  async findForCallback(mode: Mode, reference: string): Promise<(PaymentToVerify & { settled: boolean }) | null> {
    const found = await this.repository.findForCallback(mode, reference);
    // New keys before the spread, never after it (docs/benchmarks.md, "Keys added after a spread").
    return found && { settled: nothingToAsk(found.view.payment), ...found };
  }

  /**
   * The provider's callback about a charge: verified like a merchant's verify, so the provider is
   * asked again and a callback can never credit more, or differently, than verify would. A
   * reference this mode does not know is ignored. `read`: the payment as findForCallback read it
   * for this callback (read again when not given).
   * @throws gateway_timeout, provider_error
   */
  async verifyForCallback(mode: Mode, reference: string, read?: PaymentToVerify, within?: ServingRequest): Promise<void> {
    const found = read ?? (await this.repository.findForCallback(mode, reference));
    if (!found) {
      this.logger.warn(`provider callback for an unknown ${mode} payment; ignored`);
      return;
    }
    await this.verifyFound(tenantOf({ developerId: found.view.payment.developerId, mode }, within), found);
  }

  /**
   * Records a provider transaction (from verify, a callback or a charge) against its payment.
   * `known.feeOverride`: the developer's platform fee override when the caller already read it.
   */
  async apply(ctx: DeveloperContext, payment: PaymentEntity, transaction: ProviderTransaction, known?: { feeOverride: Amount | null }): Promise<PaymentView> {
    if (transaction.status === 'success') {
      // The success as this request committed it; null when another request had credited it first.
      const credited = await this.recordSuccess(ctx, payment, transaction, known);
      if (credited) return credited;
    } else if (transaction.status === 'failed') await this.recordFailure(ctx, payment, transaction);
    return (await this.repository.findView(ctx, payment.reference)) as PaymentView;
  }

  private async recordSuccess(ctx: DeveloperContext, payment: PaymentEntity, transaction: ProviderTransaction, known?: { feeOverride: Amount | null }): Promise<PaymentView | null> {
    // The provider must have collected exactly what we asked for, or we do not credit it. When the
    // customer bears the fees, Paystack's `amount` is ours plus them and `requested_amount` is ours.
    const requested = transaction.requestedAmount ?? transaction.amount;
    if (!requested.equals(payment.amount) || transaction.amount.compare(requested) < 0 || transaction.currency !== payment.currency) {
      this.logger.error(`payment ${payment.reference}: the provider reports a different amount or currency; not credited`);
      throw new DomainError('provider_error', 'The provider reported a different amount for this payment; it was not credited. Contact support with the request id.');
    }
    const feeOverride = known ? known.feeOverride : await this.developers.feeOverride(ctx.developerId, payment.currency);
    const platformFee = feeOverride ?? defaultPlatformFee(this.config, payment.currency);
    const breakdown = breakDownPayment({
      amount: payment.amount,
      platformFee,
      providerFee: feeBorneByMerchant(transaction, requested),
      splits: payment.splits,
    });
    const now = this.clock.now();
    const changes: PaymentSuccessChanges = {
      platformFee: breakdown.platformFee,
      providerFee: breakdown.providerFee,
      netAmount: breakdown.net,
      splits: breakdown.shares.map((s) => ({ subaccount: s.subaccount, share: s.share, amount: s.amount.toString() })),
      authorizationId: payment.authorizationId,
      gatewayResponse: transaction.gatewayResponse,
      channel: transaction.channel,
      paidAt: transaction.paidAt ?? now,
      providerTransactionId: transaction.providerId,
      updatedAt: now,
    };
    const posting: Posting = {
      currency: payment.currency,
      sourceType: 'payment',
      sourceId: payment.id,
      kind: 'success',
      reference: payment.reference,
      lines: paymentSuccessLines({
        amount: payment.amount,
        platformFee: breakdown.platformFee,
        providerFee: breakdown.providerFee,
        shares: breakdown.shares.map((s) => ({ subaccountCode: s.subaccount, amount: s.amount })),
      }),
    };
    const outcome = (previous: PreviousOutcome | null): PaymentOutcomeChange => ({
      developerId: ctx.developerId,
      mode: ctx.mode,
      paymentId: payment.id,
      currency: payment.currency,
      outcome: 'succeeded',
      at: changes.paidAt,
      amount: payment.amount,
      platformFee: breakdown.platformFee,
      providerFee: breakdown.providerFee,
      previous,
    });
    const card = transaction.authorization ? this.newAuthorization(ctx, payment, transaction.authorization) : null;
    // A listener acting on this payment's success runs its code in the success's transaction.
    if (!this.hooks.concernSuccessOf(payment)) {
      const settled = await this.succeedInOneStatement(ctx, payment, { changes, posting, outcome: outcome(null), card });
      if (settled !== undefined) return settled;
    }
    return inTransaction(this.dataSource, async (manager) => {
      const saved = card ? await this.repository.saveAuthorization(manager, card) : null;
      const succeeded = await this.repository.succeed(manager, payment.id, { ...changes, authorizationId: saved?.id ?? payment.authorizationId });
      if (!succeeded) return null; // another verify, callback or charge credited it first
      const updated = succeeded.payment;
      await this.ledger.post(manager, ctx, posting);
      const authorization = saved ?? (updated.authorizationId ? await this.repository.findAuthorizationById(manager, ctx, updated.authorizationId) : null);
      const view: PaymentView = { payment: updated, authorization };
      await this.events.emit(manager, ctx, 'payment.success', { ...toPaymentResponse(view, this.config.api.publicBaseUrl) });
      await this.hooks.succeeded(manager, ctx, view);
      await this.analytics.recordPaymentOutcome(manager, outcome(succeeded.previous));
      return view;
    }, 'payments.record-success');
  }

  /**
   * The success as ONE statement (payment-success.statement.ts), without a transaction's BEGIN and
   * COMMIT round trips: the view as committed; null when another request had credited the payment;
   * undefined when the statement cannot settle it and the transaction path must (a late success
   * after a decline or an abandonment, a debit-like posting, a status moved meanwhile).
   */
  private async succeedInOneStatement(
    ctx: DeveloperContext,
    payment: PaymentEntity,
    success: { changes: PaymentSuccessChanges; posting: Posting; outcome: PaymentOutcomeChange; card: NewAuthorization | null },
  ): Promise<PaymentView | null | undefined> {
    const ledger = this.ledger.creditInStatement(ctx, success.posting);
    if (!ledger) return undefined;
    const { changes, card } = success;
    // The event's data: the payment as the row will read after the move; its card is set by the statement.
    const moved = { ...payment, ...changes, status: 'success' as const };
    const event = this.events.emitInStatement(ctx, 'payment.success', { ...toPaymentResponse({ payment: moved, authorization: null }, this.config.api.publicBaseUrl) });
    const parts = { ledger, event, analytics: this.analytics.paymentOutcomesInStatement([success.outcome]) };
    const statement = { paymentId: payment.id, developerId: ctx.developerId, mode: ctx.mode, from: [...SETTLE_FROM], card, changes };
    for (let attempt = 1; attempt <= ONE_STATEMENT_ATTEMPTS; attempt++) {
      const result = await inOneStatement(() => succeedInOneStatement(this.repository.manager, statement, parts), 'payments.record-success');
      if (result.settled) {
        this.events.afterStatement(result.fanOut);
        return result.settled;
      }
      if (!result.walletExists) {
        await this.ledger.ensureWallet(ctx, payment.currency); // the merchant's first credit in this currency
        continue;
      }
      if (card && !result.cardSeen) continue; // saved by a concurrent transaction after the statement's snapshot: seen next time
      return result.statusSeen === 'success' ? null : undefined;
    }
    return undefined;
  }

  private async recordFailure(ctx: DeveloperContext, payment: PaymentEntity, transaction: ProviderTransaction): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const moved = await this.repository.fail(manager, payment.id, {
        gatewayResponse: transaction.gatewayResponse,
        channel: transaction.channel,
        providerTransactionId: transaction.providerId,
        updatedAt: now,
      });
      if (!moved) return;
      // From pending or scheduled only (see PAYMENT_TRANSITIONS): no earlier outcome to move.
      await this.analytics.recordPaymentOutcome(manager, { developerId: ctx.developerId, mode: ctx.mode, paymentId: payment.id, currency: payment.currency, outcome: 'failed', at: now });
      const view = (await this.repository.findView(ctx, payment.reference, manager)) as PaymentView;
      await this.events.emit(manager, ctx, 'payment.failed', { ...toPaymentResponse(view, this.config.api.publicBaseUrl) });
      await this.hooks.failed(manager, ctx, view);
    });
  }

  private newAuthorization(ctx: DeveloperContext, payment: PaymentEntity, card: NonNullable<ProviderTransaction['authorization']>): NewAuthorization {
    return {
      developerId: ctx.developerId,
      mode: ctx.mode,
      code: `AUTH_${randomHex(10)}`,
      customerId: payment.customerId,
      email: payment.email,
      providerAuthorizationCode: card.code,
      providerSignature: card.signature,
      reusable: card.reusable,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      bank: card.bank,
      channel: card.channel,
      createdAt: this.clock.now(),
    };
  }
}

/**
 * The part of the provider's fee the merchant pays: all of it, less what the customer paid on top
 * of the requested amount (Paystack: `amount` − `requested_amount`, when the customer bears the fees).
 */
function feeBorneByMerchant(transaction: ProviderTransaction, requested: Amount): Amount {
  const fee = transaction.fee ?? Amount.zero();
  const paidByCustomer = transaction.amount.minus(requested);
  const rest = fee.minus(paidByCustomer);
  return rest.isPositive() ? rest : Amount.zero();
}

/**
 * Final, or a scheduled charge not yet handed to the provider: nothing to ask the provider. A
 * triggered one (triggered_at set) may have been charged by a scheduler that did not record the
 * outcome, so the provider is asked, and its callback settles it through verify's path too.
 */
function nothingToAsk({ status, triggeredAt }: Pick<PaymentEntity, 'status' | 'triggeredAt'>): boolean {
  return status === 'success' || status === 'cancelled' || (status === 'scheduled' && triggeredAt === null);
}
