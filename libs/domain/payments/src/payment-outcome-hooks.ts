import { Injectable } from '@nestjs/common';
import type { DeveloperContext } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { PaymentEntity } from './payment.entity';
import type { PaymentView } from './payment.mapper';

/**
 * A capability that takes payments for something of its own (an invoice, a subscription period)
 * and must record the outcome in the same transaction as the payment's: status, ledger and events
 * commit together or not at all. Each method runs only for the request that moved the payment's
 * status, so it runs once per payment; throwing rolls the whole transaction back.
 */
export interface PaymentOutcomeListener {
  /**
   * Whether paymentSucceeded acts on this payment (e.g. only payments of an invoice's link). When
   * no listener does, the success is recorded in one statement with no listener code in it; a
   * listener without this method is taken to act on every payment.
   */
  concernsSuccessOf?(payment: PaymentEntity): boolean;
  /** The payment was credited: `payment` is the view as committed (status `success`). */
  paymentSucceeded?(manager: EntityManager, ctx: DeveloperContext, payment: PaymentView): Promise<void>;
  /** The payment failed (a decline): `payment` is the view after the move. */
  paymentFailed?(manager: EntityManager, ctx: DeveloperContext, payment: PaymentView): Promise<void>;
}

/**
 * Where capabilities built on payments register their listener (from their module's
 * `onModuleInit`), so payments never import them: dependencies keep pointing one way.
 */
@Injectable()
export class PaymentOutcomeHooks {
  private readonly listeners: PaymentOutcomeListener[] = [];

  register(listener: PaymentOutcomeListener): void {
    this.listeners.push(listener);
  }

  /** Whether a listener acts on this payment's success (see PaymentOutcomeListener.concernsSuccessOf). */
  concernSuccessOf(payment: PaymentEntity): boolean {
    return this.listeners.some((listener) => listener.paymentSucceeded && (listener.concernsSuccessOf?.(payment) ?? true));
  }

  async succeeded(manager: EntityManager, ctx: DeveloperContext, payment: PaymentView): Promise<void> {
    for (const listener of this.listeners) await listener.paymentSucceeded?.(manager, ctx, payment);
  }

  async failed(manager: EntityManager, ctx: DeveloperContext, payment: PaymentView): Promise<void> {
    for (const listener of this.listeners) await listener.paymentFailed?.(manager, ctx, payment);
  }
}
