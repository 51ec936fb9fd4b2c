import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { AnalyticsService } from '@gateway/domain/analytics';
import { DevelopersService } from '@gateway/domain/developers';
import { EventsService } from '@gateway/domain/webhooks';
import { LedgerService, paymentSuccessLines } from '@gateway/domain/ledger';
import { PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, inTransaction } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { breakDownPayment } from './payment-breakdown';
import { defaultPlatformFee } from './payment-config';
import { toPaymentResponse, type PaymentView } from './payment.mapper';
import { PaymentOutcomeHooks } from './payment-outcome-hooks';
import type { PaymentAuthorizationEntity } from './payment-authorization.entity';
import type { PaymentEntity } from './payment.entity';
import { PaymentsRepository } from './payments.repository';

/**
 * Settles a payment from what the provider says about it. Verify, the provider's callbacks, the
 * sandbox and charges of saved cards all end here, so a success is credited by one code path:
 * status, ledger posting and `payment.success` event commit in ONE transaction, and only the
 * request that moves the status first posts (any number of concurrent verifies credit once).
 */
@Injectable()
export class PaymentConfirmationService {
  private readonly logger = new Logger(PaymentConfirmationService.name);

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
    const { view, feeOverride } = found;
    // Final, or a scheduled charge not yet handed to the provider: nothing to ask. A triggered one
    // (triggered_at set) may have been charged by a scheduler that did not record the outcome, so
    // the provider is asked, and its callback settles it through here too.
    const { status, triggeredAt } = view.payment;
    if (status === 'success' || status === 'cancelled' || (status === 'scheduled' && triggeredAt === null)) return view;
    const transaction = await this.provider.verifyTransaction(ctx.mode, reference);
    if (!transaction) return view;
    return this.apply(ctx, view.payment, transaction, { feeOverride });
  }

  /**
   * The provider's callback about a charge: verified like a merchant's verify, so the provider is
   * asked again and a callback can never credit more, or differently, than verify would. A
   * reference this mode does not know is ignored.
   * @throws gateway_timeout, provider_error
   */
  async verifyForCallback(mode: Mode, reference: string): Promise<void> {
    const payment = await this.repository.findByReference(mode, reference);
    if (!payment) {
      this.logger.warn(`provider callback for an unknown ${mode} payment; ignored`);
      return;
    }
    await this.verify({ developerId: payment.developerId, mode }, reference);
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
    return inTransaction(this.dataSource, async (manager) => {
      const saved = transaction.authorization ? await this.saveAuthorization(manager, ctx, payment, transaction) : null;
      const now = this.clock.now();
      const succeeded = await this.repository.succeed(manager, payment.id, {
        platformFee: breakdown.platformFee,
        providerFee: breakdown.providerFee,
        netAmount: breakdown.net,
        splits: breakdown.shares.map((s) => ({ subaccount: s.subaccount, share: s.share, amount: s.amount.toString() })),
        authorizationId: saved?.id ?? payment.authorizationId,
        gatewayResponse: transaction.gatewayResponse,
        channel: transaction.channel,
        paidAt: transaction.paidAt ?? now,
        providerTransactionId: transaction.providerId,
        updatedAt: now,
      });
      if (!succeeded) return null; // another verify, callback or charge credited it first
      const updated = succeeded.payment;
      await this.ledger.post(manager, ctx, {
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
      });
      const authorization = saved ?? (updated.authorizationId ? await this.repository.findAuthorizationById(manager, ctx, updated.authorizationId) : null);
      const view: PaymentView = { payment: updated, authorization };
      await this.events.emit(manager, ctx, 'payment.success', { ...toPaymentResponse(view, this.config.api.publicBaseUrl) });
      await this.hooks.succeeded(manager, ctx, view);
      await this.analytics.recordPaymentOutcome(manager, {
        ...ctx,
        paymentId: payment.id,
        currency: payment.currency,
        outcome: 'succeeded',
        at: updated.paidAt ?? now,
        amount: payment.amount,
        platformFee: breakdown.platformFee,
        providerFee: breakdown.providerFee,
        previous: succeeded.previous,
      });
      return view;
    }, 'payments.record-success');
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
      await this.analytics.recordPaymentOutcome(manager, { ...ctx, paymentId: payment.id, currency: payment.currency, outcome: 'failed', at: now });
      const view = (await this.repository.findView(ctx, payment.reference, manager)) as PaymentView;
      await this.events.emit(manager, ctx, 'payment.failed', { ...toPaymentResponse(view, this.config.api.publicBaseUrl) });
      await this.hooks.failed(manager, ctx, view);
    });
  }

  private saveAuthorization(manager: EntityManager, ctx: DeveloperContext, payment: PaymentEntity, transaction: ProviderTransaction): Promise<PaymentAuthorizationEntity> {
    const card = transaction.authorization as NonNullable<ProviderTransaction['authorization']>;
    return this.repository.saveAuthorization(manager, {
      developerId: ctx.developerId,
      mode: ctx.mode,
      code: `AUTH_${randomBytes(10).toString('hex')}`,
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
    });
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
