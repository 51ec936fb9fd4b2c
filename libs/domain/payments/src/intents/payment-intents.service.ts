import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CustomersService } from '@gateway/domain/customers';
import { PaymentProvider, type ProviderTransaction } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, checkAmount, Clock, type DeveloperContext, DomainError, inTransaction } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { PaymentConfirmationService } from '../payment-confirmation.service';
import { amountLimits } from '../payment-config';
import { PaymentsRepository } from '../payments.repository';
import { parseRequestCurrency } from '../payments.service';
import { PaymentIntentEntity } from './payment-intent.entity';

/** How long an authorization hold lasts (the spec's limit). */
export const HOLD_DAYS = 7;

export interface NewPaymentIntent {
  amount: number;
  email: string;
  currency?: string;
  authorizationCode?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Two-step payments: a 7-day hold on a saved card, then capture (all or less) or cancel. The intent
 * row is locked while it moves, so a capture racing a cancel ends as exactly one of them. A capture
 * becomes a payment with the intent's reference — the provider knows the captured transaction by
 * it — and is credited by the same code path as a verified payment, so a crash after the provider
 * captured is recovered by verifying that payment (or by the provider's callback).
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

  /** @throws validation_error, invalid_currency, authorization_not_found, authorization_declined, gateway_timeout, provider_error */
  async create(ctx: DeveloperContext, input: NewPaymentIntent): Promise<PaymentIntentEntity> {
    const currency = parseRequestCurrency(input.currency);
    const check = checkAmount(input.amount, currency, amountLimits(this.config));
    if (!check.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [check.message] });
    const card = await this.savedCard(ctx, input);
    const reference = `PI-${randomBytes(10).toString('hex')}`;
    const hold = await this.provider.reserveAuthorization(ctx.mode, {
      reference,
      authorizationCode: card.providerAuthorizationCode,
      email: card.email,
      amount: check.amount,
      currency,
    });
    if (hold.status !== 'reserved') throw new DomainError('authorization_declined', `The card issuer refused the hold${hold.gatewayResponse ? `: ${hold.gatewayResponse}` : ''}.`);
    const now = this.clock.now();
    return this.intents.save(
      this.intents.create({
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference,
        status: 'requires_capture',
        captureMethod: 'manual',
        amount: check.amount,
        capturedAmount: null,
        currency,
        email: input.email.trim(),
        customerId: card.customerId,
        authorizationId: card.id,
        metadata: input.metadata ?? {},
        paymentId: null,
        expiresAt: new Date(now.getTime() + HOLD_DAYS * 86_400_000),
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  /** @throws payment_intent_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await this.intents.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
    if (!intent) throw new DomainError('payment_intent_not_found', 'No such payment intent.');
    return intent;
  }

  /**
   * Captures the hold (all of it, or a lower amount) into a payment credited like a verified one.
   * Repeating a capture that already succeeded with the provider returns it (and finishes
   * crediting if an earlier attempt stopped half-way).
   * @throws payment_intent_not_found, invalid_state, validation_error, gateway_timeout, provider_error
   */
  async capture(ctx: DeveloperContext, reference: string, amountInput?: number): Promise<PaymentIntentEntity> {
    const intent = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      if (locked.status === 'succeeded') return locked;
      this.requireCapturable(locked);
      const amount = amountInput === undefined ? locked.amount : this.captureAmount(amountInput, locked.amount);
      const now = this.clock.now();
      const payment = await this.payments.insert(manager, {
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: locked.reference,
        status: 'pending',
        customerId: locked.customerId,
        customerReference: (await this.customers.getById(ctx, locked.customerId, manager)).reference,
        email: locked.email,
        amount,
        currency: locked.currency,
        amountRefunded: Amount.zero(),
        metadata: locked.metadata as never,
        splits: [] as never,
        authorizationId: locked.authorizationId,
        createdAt: now,
        updatedAt: now,
      });
      await manager.update(PaymentIntentEntity, { id: locked.id }, { status: 'succeeded', capturedAmount: amount, paymentId: payment?.id ?? null, updatedAt: now });
      return manager.getRepository(PaymentIntentEntity).findOneByOrFail({ id: locked.id });
    });
    const payment = await this.payments.findView(ctx, intent.reference);
    if (payment && payment.payment.status !== 'success') {
      const hold = await this.provider.captureAuthorization(ctx.mode, { reference: intent.reference, amount: intent.capturedAmount ?? undefined });
      const captured: ProviderTransaction = {
        providerId: hold.reference,
        reference: intent.reference,
        status: hold.status === 'captured' ? 'success' : 'failed',
        amount: hold.amount,
        currency: hold.currency,
        fee: hold.fee,
        paidAt: this.clock.now(),
        gatewayResponse: hold.gatewayResponse,
        authorization: null,
        customerCode: null,
        channel: 'card',
      };
      await this.confirmation.apply(ctx, payment.payment, captured);
    }
    return this.intents.findOneByOrFail({ id: intent.id });
  }

  /** Releases the hold; no fee is charged. @throws payment_intent_not_found, invalid_state */
  async cancel(ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.lock(manager, ctx, reference);
      if (locked.status === 'canceled') return locked;
      this.requireCapturable(locked);
      await manager.update(PaymentIntentEntity, { id: locked.id }, { status: 'canceled', updatedAt: this.clock.now() });
      return { ...locked, status: 'canceled' as const };
    });
    await this.release(intent);
    return this.intents.findOneByOrFail({ id: intent.id });
  }

  /** Holds past their 7 days become `expired` and are released at the provider. Returns how many. */
  async expireHolds(asOf?: Date, ctx?: DeveloperContext): Promise<number> {
    const now = asOf ?? this.clock.now();
    const query = this.intents
      .createQueryBuilder()
      .update(PaymentIntentEntity)
      .set({ status: 'expired', updatedAt: now })
      .where("status = 'requires_capture' AND expires_at <= :now", { now })
      .returning('*');
    if (ctx) query.andWhere('developer_id = :developerId AND mode = :mode', ctx);
    const expired = (await query.execute()).raw as Array<{ reference: string; mode: PaymentIntentEntity['mode'] }>;
    for (const intent of expired) await this.release(intent);
    return expired.length;
  }

  private async release(intent: Pick<PaymentIntentEntity, 'reference' | 'mode'>): Promise<void> {
    try {
      await this.provider.releaseAuthorization(intent.mode, intent.reference);
    } catch (error) {
      // The provider lets an unreleased hold lapse on its own; the intent's status is already final.
      this.logger.warn(`hold ${intent.reference} could not be released now: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async lock(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<PaymentIntentEntity> {
    const intent = await manager
      .getRepository(PaymentIntentEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.reference = :reference AND i.developer_id = :developerId AND i.mode = :mode', { reference, ...ctx })
      .getOne();
    if (!intent) throw new DomainError('payment_intent_not_found', 'No such payment intent.');
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
