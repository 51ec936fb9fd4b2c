import { Injectable } from '@nestjs/common';
import { type Amount, Clock, type Currency, type DeveloperContext, DomainError } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import { PaymentsRepository } from './payments.repository';

/** What a refund takes from a payment. */
export interface RefundReservation {
  paymentId: string;
  paymentReference: string;
  currency: Currency;
  amount: Amount;
}

/**
 * A payment's `amount_refunded`, which only refunds move, through here, inside their own
 * transaction (the manager they pass): `reserve` locks the payment row before it decides, so
 * concurrent refunds of one payment are decided one after the other and Σ refunds never exceeds
 * what was paid.
 */
@Injectable()
export class PaymentRefundBalanceService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Locks the payment and adds `requested` — omitted: everything not yet refunded — to its
   * amount_refunded. The lock is held until the caller's transaction ends.
   * @throws payment_not_found, invalid_state (not successful, or fully refunded), validation_error (more than is left)
   */
  async reserve(manager: EntityManager, ctx: DeveloperContext, paymentReference: string, requested?: Amount): Promise<RefundReservation> {
    const payment = await this.repository.lockByReference(manager, ctx, paymentReference);
    if (!payment) throw new DomainError('payment_not_found', 'No such payment.');
    if (payment.status !== 'success') throw new DomainError('invalid_state', `The payment is ${payment.status}; only a successful payment can be refunded.`);
    const refundable = payment.amount.minus(payment.amountRefunded);
    if (refundable.isZero()) throw new DomainError('invalid_state', 'The payment is already fully refunded.');
    const amount = requested ?? refundable;
    if (amount.gt(refundable)) {
      throw new DomainError('validation_error', 'The refund is larger than what is left to refund.', { amount: [`must be at most ${refundable} ${payment.currency}`] });
    }
    await this.repository.addRefunded(manager, payment.id, amount, this.clock.now());
    return { paymentId: payment.id, paymentReference: payment.reference, currency: payment.currency, amount };
  }

  /** Gives a failed refund's amount back to what its payment can still refund. */
  async release(manager: EntityManager, reservation: Pick<RefundReservation, 'paymentId' | 'amount'>): Promise<void> {
    await this.repository.addRefunded(manager, reservation.paymentId, reservation.amount.negate(), this.clock.now());
  }
}
