import { Inject, Injectable, Logger } from '@nestjs/common';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { CustomersService } from '@gateway/domain/customers';
import { isProviderRefusal, parseRequestCurrency, PaymentsService, type SavedCard, SavedCardsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { PaymentProvider, type ProviderHold } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, assertTransition, canMove, Clock, type DeveloperContext, DomainError, inTransaction, parseRequestAmount, randomHex, targetOf } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { PaymentIntentEntity } from './payment-intent.entity';
import { HOLD_DAYS, PaymentIntentAuthorizationService } from './payment-intent-authorization.service';
import { PaymentIntentSettlementService } from './payment-intent-settlement.service';
import { INTENT_TRANSITIONS } from './payment-intent-status';
import { PaymentIntentsRepository } from './payment-intents.repository';


export interface NewPaymentIntent {
  amount: number;
  email: string;
  currency?: string;
  authorizationCode?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Two-step payments: a 7-day hold on a saved card — or, for a customer without one, on the card
 * they authorize at the intent's `authorization_url` (`requires_action` until then, see
 * PaymentIntentAuthorizationService; the link lapses after the hours payments are abandoned
 * after, PAYMENT_ABANDON_AFTER_HOURS) — then capture (all or less) or cancel. No
 * provider call runs inside a transaction; instead each step first claims the row, so a crash or a
 * timeout leaves a claim that a retry (or the upkeep scan) resumes under the same `PI-` reference,
 * which the provider treats idempotently:
 * - create saves the row `holding` with its reference (and Idempotency-Key), then asks for the hold;
 * - capture claims `capturing` with its amount (a concurrent cancel or capture of another amount
 *   gets 409), asks the provider, then credits a payment with the intent's reference through
 *   PaymentConfirmationService; the intent turns `succeeded` in that crediting transaction (a
 *   trigger), never before the money is ledgered;
 * - cancel and expiry decide the status first, then release at the provider; a release still owed
 *   (`released_at` null) is retried by the upkeep scan until the provider confirms it.
 * The provider's side of captures and releases is PaymentIntentSettlementService; expiry and the
 * recovery of interrupted requests are PaymentIntentsUpkeepService. Table: `payment_intents`.
 */
@Injectable()
export class PaymentIntentsService {
  private readonly logger = new Logger(PaymentIntentsService.name);

  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly payments: PaymentsService,
    private readonly cards: SavedCardsService,
    private readonly settlement: PaymentIntentSettlementService,
    private readonly provider: PaymentProvider,
    private readonly authorizations: PaymentIntentAuthorizationService,
    private readonly customers: CustomersService,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Places the hold on the saved card, or — none saved and no `authorization_code` — opens the
   * provider's authorize-only checkout (`requires_action`). With an Idempotency-Key, a retry after a timeout resumes the same intent and
   * asks the provider again under its reference, so at most one hold is ever placed.
   * @throws validation_error, invalid_currency, capability_not_supported, authorization_not_found, authorization_declined,
   *         idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewPaymentIntent, idempotencyKey?: string): Promise<PaymentIntentEntity> {
    const currency = parseRequestCurrency(input.currency);
    // Before anything is written: a provider without holds in this currency (Paystack: ZAR only) refuses it whole.
    this.provider.capabilities(ctx.mode).require('holds', currency);
    const amount = this.payments.checkRequestAmount(input.amount, currency);
    const hash = requestFingerprint({
      amount: amount.toString(),
      currency,
      email: input.email.trim().toLowerCase(),
      authorization_code: input.authorizationCode ?? null,
      metadata: input.metadata ?? {},
    });
    if (idempotencyKey) {
      const existing = await this.repository.findByIdempotencyKey(ctx, idempotencyKey);
      if (existing) return this.resumeCreate(ctx, existing, hash);
    }
    const card = await this.savedCard(ctx, input);
    // No card: the provider must offer a checkout that only authorizes (Paystack has none) — refused before anything is written.
    if (!card) this.provider.capabilities(ctx.mode).require('hold_checkouts', currency);
    const customerId = card ? card.customerId : (await this.customers.findOrCreateByEmail(ctx, input.email.trim())).customer.id;
    // The tenant's time: in test mode the hold's 7 days run on the developer's test clock.
    const now = await this.testClocks.now(ctx);
    const lifetimeMs = card ? HOLD_DAYS * 86_400_000 : this.config.payments.abandonAfterHours * 3_600_000;
    const inserted = await this.repository.insert({
      developerId: ctx.developerId,
      mode: ctx.mode,
      reference: `PI-${randomHex(10)}`,
      status: 'holding',
      captureMethod: 'manual',
      amount,
      capturedAmount: null,
      captureAmount: null,
      currency,
      email: input.email.trim(),
      customerId,
      authorizationId: card?.id ?? null,
      metadata: (input.metadata ?? {}) as never,
      paymentId: null,
      idempotencyKey: idempotencyKey ?? null,
      requestHash: hash,
      expiresAt: new Date(now.getTime() + lifetimeMs),
      createdAt: now,
      updatedAt: now,
    });
    if (!inserted) {
      // A concurrent request with the same key saved its intent first.
      const existing = (await this.repository.findByIdempotencyKey(ctx, idempotencyKey as string)) as PaymentIntentEntity;
      return this.resumeCreate(ctx, existing, hash);
    }
    return inserted.authorizationId === null ? this.authorizations.openCheckout(ctx, inserted) : this.placeHold(ctx, inserted);
  }

  /**
   * The intent; one awaiting its customer is verified at the provider first, so a lost callback never hides an authorization.
   * @throws payment_intent_not_found
   */
  async get(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await this.repository.findByReference(ctx, reference);
    // A hold still being placed has not been given to the merchant: it does not exist for them yet.
    if (!intent || intent.status === 'holding') throw new DomainError('payment_intent_not_found', 'No such payment intent.');
    return this.authorizations.sync(ctx, intent);
  }

  /**
   * Captures the hold (all of it, or a lower amount) into a payment credited like a verified one.
   * The intent is `succeeded` only once that payment is credited. A provider refusal gives the
   * claim up (402; the intent still awaits capture); a timeout keeps it (504), and a retry — same
   * key or a new request with the same amount — resumes it without capturing twice. Capturing a
   * succeeded intent again answers it as it is.
   * @throws payment_intent_not_found, invalid_state, validation_error, authorization_declined, gateway_timeout, provider_error
   */
  async capture(ctx: DeveloperContext, reference: string, amountInput?: number): Promise<PaymentIntentEntity> {
    // Read before any lookup, as every amount the API takes: a malformed one is a 400 whatever the intent.
    const requested = amountInput === undefined ? undefined : parseRequestAmount(amountInput);
    // An intent awaiting its customer may have been authorized without the gateway hearing yet.
    await this.get(ctx, reference);
    const claimed = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      if (locked.status === 'succeeded') return locked;
      const amount = requested === undefined ? locked.amount : this.captureAmount(requested, locked.amount);
      if (locked.status === 'capturing') {
        if (!amount.equals(locked.captureAmount as Amount)) {
          throw new DomainError('invalid_state', `A capture of ${locked.captureAmount} ${locked.currency} is in progress; retry it with that amount to finish it.`);
        }
        return locked;
      }
      this.requireCapturable(locked, 'claimCapture', await this.testClocks.now(ctx, manager));
      const now = this.clock.now();
      await this.repository.move(manager, locked.id, 'claimCapture', { captureAmount: amount, captureStartedAt: now, updatedAt: now });
      return { ...locked, status: targetOf(INTENT_TRANSITIONS, 'claimCapture'), captureAmount: amount, captureStartedAt: now, updatedAt: now };
    });
    if (claimed.status === 'succeeded') return claimed;
    await this.settlement.completeCapture(ctx, claimed);
    return this.repository.findById(claimed.id);
  }

  /**
   * Cancels the hold (no fee) and releases it at the provider — from `requires_action` too, which
   * closes the provider's checkout (or releases the hold, had the customer just authorized it). A release that fails is owed and
   * retried by the upkeep scan; the intent is `canceled` either way.
   * @throws payment_intent_not_found, invalid_state (not awaiting capture — a second cancel included — or a capture is in progress)
   */
  async cancel(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      // A second cancel is a forbidden move like any other (409 naming `canceled`, decisions.md);
      // a release it would have retried is the upkeep scan's.
      if (locked.status === 'capturing') {
        throw new DomainError('invalid_state', 'A capture of this hold is in progress, so it can no longer be cancelled; retry the capture to finish it.');
      }
      this.requireCapturable(locked, 'cancel', await this.testClocks.now(ctx, manager));
      await this.repository.move(manager, locked.id, 'cancel', { updatedAt: this.clock.now() });
      return { ...locked, status: targetOf(INTENT_TRANSITIONS, 'cancel'), releasedAt: null };
    });
    if (!intent.releasedAt) await this.settlement.release(intent);
    return this.repository.findById(intent.id);
  }

  /** @throws idempotency_key_reused, and create's codes when the hold is asked for again */
  private async resumeCreate(ctx: DeveloperContext, existing: PaymentIntentEntity, hash: string): Promise<PaymentIntentEntity> {
    if (existing.requestHash !== null && existing.requestHash !== hash) {
      throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another payment intent; use a new key for a new one.');
    }
    if (existing.status !== 'holding') return existing;
    return existing.authorizationId === null ? this.authorizations.openCheckout(ctx, existing) : this.placeHold(ctx, existing);
  }

  /**
   * Asks the provider for the hold under the intent's reference (the same reference and payload
   * return the hold already placed). A refusal deletes the `holding` row — no hold exists, and the
   * merchant never saw its reference; a timeout or 5xx keeps it for a retry or the upkeep scan.
   * @throws authorization_declined, gateway_timeout, provider_error
   */
  private async placeHold(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<PaymentIntentEntity> {
    const card = intent.authorizationId === null ? null : await this.cards.findById(ctx, intent.authorizationId);
    if (!card) throw new Error(`payment intent ${intent.reference} has no saved card`);
    let hold: ProviderHold;
    try {
      hold = await this.provider.reserveAuthorization(ctx.mode, {
        reference: intent.reference,
        authorizationCode: card.providerAuthorizationCode,
        email: card.email,
        amount: intent.amount,
        currency: intent.currency,
      });
    } catch (error) {
      if (isProviderRefusal(error)) await this.repository.deleteUnconfirmed(intent.id);
      throw error;
    }
    if (hold.status === 'failed') {
      await this.repository.deleteUnconfirmed(intent.id);
      throw new DomainError('authorization_declined', `The card issuer refused the hold${hold.gatewayResponse ? `: ${hold.gatewayResponse}` : ''}.`);
    }
    if (hold.status !== 'reserved') {
      this.logger.error(`hold ${intent.reference}: the provider reports it ${hold.status} while it is being placed`);
      throw new DomainError('provider_error', 'The payment provider reported an unexpected state for this hold. Contact support with the request id.');
    }
    // Not moved: the upkeep scan gave the create up meanwhile; answer the intent as it now is.
    await this.repository.move(this.repository.manager, intent.id, 'placeHold', { updatedAt: this.clock.now() });
    return this.repository.findById(intent.id);
  }

  private async lock(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await this.repository.lockByReference(manager, ctx, reference);
    if (!intent || intent.status === 'holding') throw new DomainError('payment_intent_not_found', 'No such payment intent.');
    return intent;
  }

  /**
   * A hold past its 7 days counts as expired even before the scan marks it so.
   * @throws invalid_state
   */
  private requireCapturable(intent: PaymentIntentEntity, transition: 'claimCapture' | 'cancel', tenantNow: Date): void {
    const lapsed = intent.expiresAt.getTime() <= tenantNow.getTime() && canMove(INTENT_TRANSITIONS, 'expire', intent.status);
    const status = lapsed ? targetOf(INTENT_TRANSITIONS, 'expire') : intent.status;
    const why =
      status === 'requires_action'
        ? 'The payment intent is requires_action: the customer has not authorized the hold yet (send them to its authorization_url), so there is nothing to capture.'
        : `The payment intent is ${status}; only a hold awaiting capture can be captured or cancelled.`;
    assertTransition(INTENT_TRANSITIONS, transition, status, why);
  }

  /** @throws validation_error */
  private captureAmount(amount: Amount, held: Amount): Amount {
    if (!amount.isPositive() || amount.gt(held)) throw new DomainError('validation_error', 'The capture amount is not valid.', { amount: [`must be greater than 0 and at most ${held}`] });
    return amount;
  }

  /**
   * The card to hold: `authorization_code`'s, else the customer's last reusable one; null when none is saved.
   * @throws authorization_not_found, validation_error
   */
  private savedCard(ctx: DeveloperContext, input: NewPaymentIntent): Promise<SavedCard | null> {
    if (input.authorizationCode) return this.cards.require(ctx, input.authorizationCode, input.email);
    return this.cards.latestReusable(ctx, input.email);
  }
}
