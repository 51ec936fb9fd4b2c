import { Injectable, Logger } from '@nestjs/common';
import { PaymentProvider } from '@gateway/provider';
import { Clock, type DeveloperContext, DomainError, failpoint, tenantOf } from '@gateway/platform';
import { PaymentConfirmationService } from './payment-confirmation.service';
import type { PaymentView } from './payment.mapper';
import type { PaymentEntity } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { type InitializePayment, type PaymentKeyScope, PaymentsService } from './payments.service';

/** A claim older than this is taken to be a crashed scheduler's, and the charge is tried again. */
const STALE_CLAIM_MS = 5 * 60_000;

export type ChargeSavedCard = Omit<InitializePayment, 'chargeAt' | 'callbackUrl'> & { authorizationCode: string };

/**
 * Charges of saved cards: now (`POST /payments/charge/`) or at `charge_at` (scheduled payments,
 * charged by the scheduler's scan). The provider is always called with our payment reference, so a
 * retry — after a timeout, or of a claim left by a crashed scheduler — never charges twice; the
 * outcome is recorded by PaymentConfirmationService exactly as a verify would.
 */
@Injectable()
export class PaymentChargesService {
  private readonly logger = new Logger(PaymentChargesService.name);

  constructor(
    private readonly payments: PaymentsService,
    private readonly repository: PaymentsRepository,
    private readonly provider: PaymentProvider,
    private readonly confirmation: PaymentConfirmationService,
    private readonly clock: Clock,
  ) {}

  /**
   * Charges the saved card now. A decline is a `failed` payment (with `payment.failed`), not an error.
   * `scope`: the key space of `idempotencyKey` (bulk items pass `batch_item`).
   * @throws invalid_currency, validation_error, split_shares_exceed_total, authorization_not_found, idempotency_key_reused,
   *         gateway_timeout, provider_error
   */
  async chargeNow(ctx: DeveloperContext, input: ChargeSavedCard, idempotencyKey?: string, scope: PaymentKeyScope = 'charge'): Promise<PaymentView> {
    const payment = await this.payments.createPayment(ctx, input, idempotencyKey, 'charge', scope);
    if (payment.status !== 'pending') return (await this.repository.findView(ctx, payment.reference)) as PaymentView;
    return this.charge(ctx, payment);
  }

  /**
   * Charges every scheduled payment that is due (at most `limit` per call), each exactly once
   * whatever the number of schedulers running. `ctx` limits it to one tenant and `asOf` runs it as
   * if it were that time (the sandbox). Returns how many were charged (successfully or not).
   */
  async chargeDue(limit = 100, ctx?: DeveloperContext, asOf?: Date): Promise<number> {
    const now = asOf ?? this.clock.now();
    const due = await this.repository.claimDueScheduled(now, new Date(now.getTime() - STALE_CLAIM_MS), limit, ctx);
    for (const payment of due) {
      try {
        await this.charge(tenantOf(payment, ctx), payment);
      } catch (error) {
        // The claim stays: the charge is retried once it is stale, with the same reference.
        this.logger.warn(`scheduled charge ${payment.reference} could not be completed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return due.length;
  }

  /**
   * Cancels a scheduled charge before the scheduler triggers it.
   * @throws payment_not_found, schedule_already_triggered, invalid_state (not a scheduled payment)
   */
  async cancelSchedule(ctx: DeveloperContext, reference: string): Promise<PaymentView> {
    const cancelled = await this.repository.cancelSchedule(ctx, reference, this.clock.now());
    const view = await this.repository.findView(ctx, reference);
    if (!view) throw new DomainError('payment_not_found', 'No such payment.');
    if (cancelled || view.payment.status === 'cancelled') return view;
    if (view.payment.chargeAt === null) {
      throw new DomainError('invalid_state', `The payment is ${view.payment.status} and was never scheduled; there is no schedule to cancel.`);
    }
    throw new DomainError('schedule_already_triggered', `The scheduled charge was already triggered (status ${view.payment.status}); it can no longer be cancelled.`);
  }

  private async charge(ctx: DeveloperContext, payment: PaymentEntity): Promise<PaymentView> {
    if (!payment.authorizationId) throw new Error(`payment ${payment.reference} has no saved card to charge`);
    const transaction = await this.provider.chargeAuthorization(ctx.mode, {
      reference: payment.reference,
      authorizationCode: await this.repository.providerAuthorizationCode(ctx, payment.authorizationId),
      email: payment.email,
      amount: payment.amount,
      currency: payment.currency,
    });
    failpoint('provider.after-call');
    return this.confirmation.apply(ctx, payment, transaction);
  }
}
