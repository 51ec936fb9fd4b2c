import { Injectable, Logger } from '@nestjs/common';
import { isProviderRefusal, PaymentConfirmationService, PaymentsService } from '@gateway/domain/payments';
import { PaymentProvider, type ProviderHold, type ProviderTransaction } from '@gateway/provider';
import { type Amount, Clock, type DeveloperContext, DomainError, inTransaction } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { PaymentIntentEntity } from './payment-intent.entity';
import { type IntentKey, PaymentIntentsRepository } from './payment-intents.repository';

/**
 * The provider's side of a hold once the merchant (or the upkeep) decided it: a claimed capture is
 * asked of the provider and then credited; a canceled or expired hold is released. Both are safe to
 * repeat — the provider keys them by the intent's reference — so a request and the upkeep scan
 * resume each other's unfinished work.
 */
@Injectable()
export class PaymentIntentSettlementService {
  private readonly logger = new Logger(PaymentIntentSettlementService.name);

  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly payments: PaymentsService,
    private readonly confirmation: PaymentConfirmationService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Asks the provider to capture the claimed amount, then credits it. Repeating it is safe: the
   * provider answers a repeated capture of the same amount with the capture it made.
   * @throws authorization_declined, gateway_timeout, provider_error
   */
  async completeCapture(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<void> {
    let hold: ProviderHold;
    try {
      hold = await this.provider.captureAuthorization(ctx.mode, { reference: intent.reference, amount: intent.captureAmount as Amount, currency: intent.currency });
    } catch (error) {
      if (isProviderRefusal(error)) throw await this.refuseCapture(intent, error.providerMessage);
      throw error; // no answer: the claim stays, to be resumed
    }
    if (hold.status !== 'captured') throw await this.refuseCapture(intent, hold.gatewayResponse ?? `the hold is ${hold.status}`);
    const payment = await this.capturePayment(ctx, intent);
    const captured: ProviderTransaction = {
      providerId: hold.reference,
      reference: intent.reference,
      status: 'success',
      amount: hold.amount,
      currency: hold.currency,
      fee: hold.fee,
      paidAt: this.clock.now(),
      gatewayResponse: hold.gatewayResponse,
      authorization: null,
      customerCode: null,
      channel: 'card',
    };
    // Posts the credit and payment.success; the trigger makes the intent `succeeded` in that transaction.
    await this.confirmation.apply(ctx, payment, captured);
  }

  /**
   * Releases the hold at the provider (repeating a release is a no-op there) and records it. A
   * failure leaves the release owed, for the upkeep scan; a refusal means there is nothing to
   * release (never placed, or already released) and is recorded as done.
   */
  async release(intent: IntentKey): Promise<boolean> {
    try {
      await this.provider.releaseAuthorization(intent.mode, intent.reference, intent.currency);
    } catch (error) {
      if (!isProviderRefusal(error)) {
        this.logger.warn(`hold ${intent.reference} could not be released now (the upkeep scan retries): ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
      this.logger.warn(`hold ${intent.reference}: the provider has nothing to release (${error.providerMessage})`);
    }
    await this.repository.markReleased(intent.id, this.clock.now());
    return true;
  }

  /** Gives the capture claim up after a provider refusal, and returns the error to answer with. */
  private async refuseCapture(intent: PaymentIntentEntity, why: string): Promise<DomainError> {
    if (!(await this.repository.giveUpCapture(intent.id, this.clock.now()))) {
      this.logger.error(`capture of ${intent.reference}: refused by the provider (${why}) after it had confirmed it`);
      return new DomainError('provider_error', 'The payment provider refused to confirm a capture it had made. Contact support with the request id.');
    }
    return new DomainError('authorization_declined', `The provider refused to capture the hold: ${why.replace(/\.$/, '')}. Nothing was captured; the intent still awaits capture or cancel.`);
  }

  /** The capture's payment (reference = the intent's), created once the provider confirmed the capture. */
  private capturePayment(ctx: DeveloperContext, intent: PaymentIntentEntity) {
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await this.repository.lockById(manager, intent.id);
      const payment = await this.payments.paymentForCapture(manager, ctx, {
        reference: locked.reference,
        customerId: locked.customerId,
        email: locked.email,
        amount: locked.captureAmount as Amount,
        currency: locked.currency,
        metadata: locked.metadata,
        // Set before any capture: only `requires_action` has no card (CHECK payment_intents_card_when_held).
        authorizationId: locked.authorizationId as string,
      });
      if (!locked.paymentId) await this.repository.linkPayment(manager, locked.id, payment.id, this.clock.now());
      return payment;
    });
  }
}
