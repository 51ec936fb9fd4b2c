import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CustomersService } from '@gateway/domain/customers';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { PaymentProvider, type ProviderHold, type ProviderTransaction } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, checkAmount, Clock, type DeveloperContext, DomainError, inTransaction } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PaymentConfirmationService } from '../payment-confirmation.service';
import { amountLimits } from '../payment-config';
import type { PaymentEntity } from '../payment.entity';
import { PaymentsRepository } from '../payments.repository';
import { parseRequestCurrency } from '../payments.service';
import { isProviderRefusal } from '../provider-refusal';
import { PaymentIntentEntity } from './payment-intent.entity';
import { INTENT_TRANSITIONS, type IntentTransition } from './payment-intent-status';

/** How long an authorization hold lasts (the spec's limit). */
export const HOLD_DAYS = 7;
/**
 * A create that never learned whether its hold was placed (the provider timed out) and was not
 * retried with its Idempotency-Key within this time is given up: the intent becomes `canceled`
 * and its hold, if the provider placed one, is released.
 */
export const UNCONFIRMED_HOLD_TTL_MS = 60 * 60_000;
/** A capture claimed this long ago whose outcome never came back is resumed by the upkeep scan. */
export const STALLED_CAPTURE_MS = 5 * 60_000;
/** At most this many owed releases or stalled claims per scan; the rest wait for the next one. */
const UPKEEP_BATCH = 100;

export interface NewPaymentIntent {
  amount: number;
  email: string;
  currency?: string;
  authorizationCode?: string;
  metadata?: Record<string, unknown>;
}

type IntentKey = Pick<PaymentIntentEntity, 'id' | 'reference' | 'mode'>;

/**
 * Two-step payments: a 7-day hold on a saved card, then capture (all or less) or cancel. No
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
 */
@Injectable()
export class PaymentIntentsService {
  private readonly logger = new Logger(PaymentIntentsService.name);

  constructor(
    @InjectRepository(PaymentIntentEntity) private readonly intents: Repository<PaymentIntentEntity>,
    private readonly payments: PaymentsRepository,
    private readonly customers: CustomersService,
    private readonly provider: PaymentProvider,
    private readonly confirmation: PaymentConfirmationService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Places the hold. With an Idempotency-Key, a retry after a timeout resumes the same intent and
   * asks the provider again under its reference, so at most one hold is ever placed.
   * @throws validation_error, invalid_currency, authorization_not_found, authorization_declined,
   *         idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewPaymentIntent, idempotencyKey?: string): Promise<PaymentIntentEntity> {
    const currency = parseRequestCurrency(input.currency);
    const check = checkAmount(input.amount, currency, amountLimits(this.config));
    if (!check.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [check.message] });
    const hash = requestFingerprint({
      amount: check.amount.toString(),
      currency,
      email: input.email.trim().toLowerCase(),
      authorization_code: input.authorizationCode ?? null,
      metadata: input.metadata ?? {},
    });
    if (idempotencyKey) {
      const existing = await this.intents.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey });
      if (existing) return this.resumeCreate(ctx, existing, hash);
    }
    const card = await this.savedCard(ctx, input);
    const now = this.clock.now();
    const inserted = await this.intents
      .createQueryBuilder()
      .insert()
      .into(PaymentIntentEntity)
      .values({
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: `PI-${randomBytes(10).toString('hex')}`,
        status: 'holding',
        captureMethod: 'manual',
        amount: check.amount,
        capturedAmount: null,
        captureAmount: null,
        currency,
        email: input.email.trim(),
        customerId: card.customerId,
        authorizationId: card.id,
        metadata: (input.metadata ?? {}) as never,
        paymentId: null,
        idempotencyKey: idempotencyKey ?? null,
        requestHash: hash,
        expiresAt: new Date(now.getTime() + HOLD_DAYS * 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (inserted.raw as Array<{ id: string }>)[0]?.id;
    if (!id) {
      // A concurrent request with the same key saved its intent first.
      const existing = await this.intents.findOneByOrFail({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey: idempotencyKey as string });
      return this.resumeCreate(ctx, existing, hash);
    }
    return this.placeHold(ctx, await this.intents.findOneByOrFail({ id }));
  }

  /** @throws payment_intent_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await this.intents.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
    // A hold still being placed has not been given to the merchant: it does not exist for them yet.
    if (!intent || intent.status === 'holding') throw new DomainError('payment_intent_not_found', 'No such payment intent.');
    return intent;
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
    const claimed = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      if (locked.status === 'succeeded') return locked;
      const amount = amountInput === undefined ? locked.amount : this.captureAmount(amountInput, locked.amount);
      if (locked.status === 'capturing') {
        if (!amount.equals(locked.captureAmount as Amount)) {
          throw new DomainError('invalid_state', `A capture of ${locked.captureAmount} ${locked.currency} is in progress; retry it with that amount to finish it.`);
        }
        return locked;
      }
      this.requireCapturable(locked);
      const now = this.clock.now();
      await this.move(manager, locked.id, 'claimCapture', { captureAmount: amount, captureStartedAt: now, updatedAt: now });
      return { ...locked, status: INTENT_TRANSITIONS.claimCapture.to, captureAmount: amount, captureStartedAt: now, updatedAt: now };
    });
    if (claimed.status === 'succeeded') return claimed;
    await this.completeCapture(ctx, claimed);
    return this.intents.findOneByOrFail({ id: claimed.id });
  }

  /**
   * Cancels the hold (no fee) and releases it at the provider. A release that fails is owed and
   * retried by the upkeep scan; the intent is `canceled` either way.
   * @throws payment_intent_not_found, invalid_state (also while a capture is in progress)
   */
  async cancel(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      if (locked.status === 'canceled') return locked;
      if (locked.status === 'capturing') {
        throw new DomainError('invalid_state', 'A capture of this hold is in progress, so it can no longer be cancelled; retry the capture to finish it.');
      }
      this.requireCapturable(locked);
      await this.move(manager, locked.id, 'cancel', { updatedAt: this.clock.now() });
      return { ...locked, status: INTENT_TRANSITIONS.cancel.to, releasedAt: null };
    });
    if (!intent.releasedAt) await this.release(intent);
    return this.intents.findOneByOrFail({ id: intent.id });
  }

  /**
   * Holds past their 7 days become `expired`; then every release still owed (of expired or
   * canceled intents, this run's or an earlier one's that failed or was cut short) is retried.
   * Returns how many intents expired.
   */
  async expireHolds(asOf?: Date, ctx?: DeveloperContext): Promise<number> {
    const now = asOf ?? this.clock.now();
    const query = this.intents
      .createQueryBuilder()
      .update(PaymentIntentEntity)
      .set({ status: INTENT_TRANSITIONS.expire.to, updatedAt: now })
      .where('status IN (:...from) AND expires_at <= :now', { from: INTENT_TRANSITIONS.expire.from, now });
    if (ctx) query.andWhere('developer_id = :developerId AND mode = :mode', ctx);
    const expired = (await query.execute()).affected ?? 0;
    await this.releaseOwed(ctx);
    return expired;
  }

  /**
   * Finishes what requests left half-way: creates never confirmed nor retried within
   * UNCONFIRMED_HOLD_TTL_MS are given up (`canceled`, their hold released), and captures claimed
   * more than STALLED_CAPTURE_MS ago are resumed (the provider captures once per reference).
   * Returns how many intents it dealt with.
   */
  async recoverInterrupted(): Promise<number> {
    const now = this.clock.now();
    const [abandoned] = (await this.dataSource.query(
      `UPDATE payment_intents SET status = $1, updated_at = $2
        WHERE id IN (SELECT id FROM payment_intents WHERE status = ANY ($3::text[]) AND created_at < $4 ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED)
        RETURNING id, reference, mode`,
      [INTENT_TRANSITIONS.abandonHold.to, now, INTENT_TRANSITIONS.abandonHold.from, new Date(now.getTime() - UNCONFIRMED_HOLD_TTL_MS), UPKEEP_BATCH],
    )) as [IntentKey[], number];
    for (const intent of abandoned) await this.release(intent);

    const stalled = await this.intents
      .createQueryBuilder('i')
      .where("i.status = 'capturing' AND i.capture_started_at < :before", { before: new Date(now.getTime() - STALLED_CAPTURE_MS) })
      .orderBy('i.capture_started_at')
      .limit(UPKEEP_BATCH)
      .getMany();
    for (const intent of stalled) {
      try {
        await this.completeCapture({ developerId: intent.developerId, mode: intent.mode }, intent);
      } catch (error) {
        this.logger.warn(`capture of ${intent.reference} could not be finished now: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return abandoned.length + stalled.length;
  }

  /** @throws idempotency_key_reused, and create's codes when the hold is asked for again */
  private async resumeCreate(ctx: DeveloperContext, existing: PaymentIntentEntity, hash: string): Promise<PaymentIntentEntity> {
    if (existing.requestHash !== null && existing.requestHash !== hash) {
      throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another payment intent; use a new key for a new one.');
    }
    return existing.status === 'holding' ? this.placeHold(ctx, existing) : existing;
  }

  /**
   * Asks the provider for the hold under the intent's reference (the same reference and payload
   * return the hold already placed). A refusal deletes the `holding` row — no hold exists, and the
   * merchant never saw its reference; a timeout or 5xx keeps it for a retry or the upkeep scan.
   * @throws authorization_declined, gateway_timeout, provider_error
   */
  private async placeHold(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<PaymentIntentEntity> {
    const card = await this.payments.findAuthorizationById(this.payments.manager, ctx, intent.authorizationId);
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
      if (isProviderRefusal(error)) await this.discardHolding(intent);
      throw error;
    }
    if (hold.status === 'failed') {
      await this.discardHolding(intent);
      throw new DomainError('authorization_declined', `The card issuer refused the hold${hold.gatewayResponse ? `: ${hold.gatewayResponse}` : ''}.`);
    }
    if (hold.status !== 'reserved') {
      this.logger.error(`hold ${intent.reference}: the provider reports it ${hold.status} while it is being placed`);
      throw new DomainError('provider_error', 'The payment provider reported an unexpected state for this hold. Contact support with the request id.');
    }
    // Not moved: the upkeep scan gave the create up meanwhile; answer the intent as it now is.
    await this.move(this.dataSource.manager, intent.id, 'placeHold', { updatedAt: this.clock.now() });
    return this.intents.findOneByOrFail({ id: intent.id });
  }

  private async discardHolding(intent: Pick<PaymentIntentEntity, 'id'>): Promise<void> {
    await this.dataSource.query(`DELETE FROM payment_intents WHERE id = $1 AND status = 'holding'`, [intent.id]);
  }

  /**
   * Asks the provider to capture the claimed amount, then credits it. Repeating it is safe: the
   * provider answers a repeated capture of the same amount with the capture it made.
   * @throws authorization_declined, gateway_timeout, provider_error
   */
  private async completeCapture(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<void> {
    let hold: ProviderHold;
    try {
      hold = await this.provider.captureAuthorization(ctx.mode, { reference: intent.reference, amount: intent.captureAmount as Amount });
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

  /** Gives the capture claim up after a provider refusal, and returns the error to answer with. */
  private async refuseCapture(intent: PaymentIntentEntity, why: string): Promise<DomainError> {
    const now = this.clock.now();
    // A claim with a payment was captured by the provider once: never given up.
    const released = await this.move(this.dataSource.manager, intent.id, 'refuseCapture', { captureAmount: null, captureStartedAt: null, updatedAt: now }, 'payment_id IS NULL');
    if (!released) {
      this.logger.error(`capture of ${intent.reference}: refused by the provider (${why}) after it had confirmed it`);
      return new DomainError('provider_error', 'The payment provider refused to confirm a capture it had made. Contact support with the request id.');
    }
    return new DomainError('authorization_declined', `The provider refused to capture the hold: ${why.replace(/\.$/, '')}. Nothing was captured; the intent still awaits capture or cancel.`);
  }

  /** The capture's payment (reference = the intent's), created once the provider confirmed the capture. */
  private async capturePayment(ctx: DeveloperContext, intent: PaymentIntentEntity): Promise<PaymentEntity> {
    return inTransaction(this.dataSource, async (manager) => {
      const locked = await manager.getRepository(PaymentIntentEntity).createQueryBuilder('i').setLock('pessimistic_write').where('i.id = :id', { id: intent.id }).getOneOrFail();
      const existing = locked.paymentId ? await this.payments.findView(ctx, locked.reference, manager) : null;
      if (existing) return existing.payment;
      const now = this.clock.now();
      const payment =
        (await this.payments.insert(manager, {
          developerId: ctx.developerId,
          mode: ctx.mode,
          reference: locked.reference,
          status: 'pending',
          customerId: locked.customerId,
          customerReference: (await this.customers.getById(ctx, locked.customerId, manager)).reference,
          email: locked.email,
          amount: locked.captureAmount as Amount,
          currency: locked.currency,
          amountRefunded: Amount.zero(),
          metadata: locked.metadata as never,
          splits: [] as never,
          authorizationId: locked.authorizationId,
          createdAt: now,
          updatedAt: now,
        })) ?? (await this.payments.findView(ctx, locked.reference, manager))?.payment;
      if (!payment) throw new Error(`payment intent ${locked.reference}: its payment could not be created`);
      await manager.update(PaymentIntentEntity, { id: locked.id }, { paymentId: payment.id, updatedAt: now });
      return payment;
    });
  }

  /** Retries every release still owed (canceled or expired intents whose hold the provider has not confirmed released). */
  private async releaseOwed(ctx?: DeveloperContext): Promise<void> {
    const query = this.intents
      .createQueryBuilder('i')
      .select(['i.id', 'i.reference', 'i.mode'])
      .where("i.status IN ('canceled', 'expired') AND i.released_at IS NULL")
      .orderBy('i.updated_at')
      .limit(UPKEEP_BATCH);
    if (ctx) query.andWhere('i.developer_id = :developerId AND i.mode = :mode', ctx);
    for (const intent of await query.getMany()) await this.release(intent);
  }

  /**
   * Releases the hold at the provider (repeating a release is a no-op there) and records it. A
   * failure leaves the release owed, for the upkeep scan; a refusal means there is nothing to
   * release (never placed, or already released) and is recorded as done.
   */
  private async release(intent: IntentKey): Promise<boolean> {
    try {
      await this.provider.releaseAuthorization(intent.mode, intent.reference);
    } catch (error) {
      if (!isProviderRefusal(error)) {
        this.logger.warn(`hold ${intent.reference} could not be released now (the upkeep scan retries): ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
      this.logger.warn(`hold ${intent.reference}: the provider has nothing to release (${error.providerMessage})`);
    }
    await this.intents.createQueryBuilder().update(PaymentIntentEntity).set({ releasedAt: this.clock.now() }).where('id = :id AND released_at IS NULL', { id: intent.id }).execute();
    return true;
  }

  /** Moves the intent along a named transition; false when it was no longer in a status the transition starts from. */
  private async move(
    manager: EntityManager,
    id: string,
    transition: IntentTransition,
    changes: QueryDeepPartialEntity<PaymentIntentEntity>,
    condition?: string,
  ): Promise<boolean> {
    const { from, to } = INTENT_TRANSITIONS[transition];
    const result = await manager
      .createQueryBuilder()
      .update(PaymentIntentEntity)
      .set({ ...changes, status: to })
      .where(`id = :id AND status IN (:...from)${condition ? ` AND ${condition}` : ''}`, { id, from })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  private async lock(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await manager
      .getRepository(PaymentIntentEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.reference = :reference AND i.developer_id = :developerId AND i.mode = :mode', { reference, ...ctx })
      .getOne();
    if (!intent || intent.status === 'holding') throw new DomainError('payment_intent_not_found', 'No such payment intent.');
    return intent;
  }

  /** @throws invalid_state */
  private requireCapturable(intent: PaymentIntentEntity): void {
    const status = intent.status === 'requires_capture' && intent.expiresAt.getTime() <= this.clock.now().getTime() ? 'expired' : intent.status;
    if (status !== 'requires_capture') throw new DomainError('invalid_state', `The payment intent is ${status}; only a hold awaiting capture can be captured or cancelled.`);
  }

  /** @throws validation_error */
  private captureAmount(input: number, held: Amount): Amount {
    let amount: Amount;
    try {
      amount = Amount.parse(input);
    } catch {
      throw new DomainError('validation_error', 'The amount is not valid.', { amount: ['must be an amount with at most 2 decimals'] });
    }
    if (!amount.isPositive() || amount.gt(held)) throw new DomainError('validation_error', 'The capture amount is not valid.', { amount: [`must be greater than 0 and at most ${held}`] });
    return amount;
  }

  /** @throws authorization_not_found, validation_error */
  private async savedCard(ctx: DeveloperContext, input: NewPaymentIntent) {
    if (input.authorizationCode) {
      const card = await this.payments.findAuthorization(ctx, input.authorizationCode);
      if (!card || card.email.toLowerCase() !== input.email.trim().toLowerCase()) {
        throw new DomainError('authorization_not_found', 'No saved card with this authorization code for this customer.');
      }
      if (!card.reusable) throw new DomainError('validation_error', 'This card cannot be charged again.', { authorization_code: ['is not reusable'] });
      return card;
    }
    const card = await this.payments.latestReusableAuthorization(ctx, input.email);
    if (!card) {
      throw new DomainError('validation_error', 'This customer has no saved card to hold: take a payment through the checkout first, or send authorization_code.', {
        authorization_code: ['no reusable card is saved for this e-mail'],
      });
    }
    return card;
  }
}
