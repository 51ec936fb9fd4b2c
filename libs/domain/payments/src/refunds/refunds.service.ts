import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { EventsService } from '@gateway/domain/events';
import { LedgerService, refundLines, refundReversalLines } from '@gateway/domain/ledger';
import { PaymentProvider, type ProviderRefund } from '@gateway/provider';
import { Amount, Clock, type Currency, decodeCursor, type DeveloperContext, DomainError, InvalidAmountError, inTransaction, type Page, toPage } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, IsNull, Repository } from 'typeorm';
import { RefundEntity } from './refund.entity';
import { toRefundResponse } from './refund.mapper';

export interface NewRefund {
  paymentReference: string;
  /** Major unit; omitted = what is left to refund. */
  amount?: number;
  reason?: string;
}

interface LockedPayment {
  id: string;
  reference: string;
  status: string;
  amount: string;
  amount_refunded: string;
  currency: Currency;
}

/**
 * Refunds of successful payments, full or partial. The wallet pays for a refund: the ledger debit,
 * the payment's amount_refunded and the refund row commit together, the debit checked against the
 * balance atomically (422 `insufficient_wallet_balance`), and the payment row locked so concurrent
 * refunds never refund more than was paid. The provider is then asked to pay the customer back
 * with our refund reference as its idempotency key; `refund.completed` follows its confirmation.
 */
@Injectable()
export class RefundsService {
  constructor(
    @InjectRepository(RefundEntity) private readonly refunds: Repository<RefundEntity>,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * @throws payment_not_found, invalid_state (not successful, or fully refunded), validation_error,
   *         insufficient_wallet_balance, idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewRefund, idempotencyKey?: string): Promise<RefundEntity> {
    const requested = input.amount === undefined ? undefined : parseRefundAmount(input.amount);
    const existing = idempotencyKey ? await this.refunds.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey }) : null;
    if (existing && existing.paymentReference !== input.paymentReference) {
      throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another refund; use a new key for a new refund.');
    }
    const refund = existing ?? (await this.record(ctx, input, requested, idempotencyKey));
    if (refund.status === 'pending' && !refund.providerRefundId) await this.submit(refund);
    return this.refunds.findOneByOrFail({ id: refund.id });
  }

  /** @throws refund_not_found (also for another developer's or the other mode's refund) */
  async get(ctx: DeveloperContext, reference: string): Promise<RefundEntity> {
    const refund = await this.refunds.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
    if (!refund) throw new DomainError('refund_not_found', 'No such refund.');
    return refund;
  }

  async list(ctx: DeveloperContext, filter: { limit: number; cursor?: string; paymentReference?: string }): Promise<Page<RefundEntity>> {
    const query = this.refunds
      .createQueryBuilder('r')
      .where('r.developer_id = :developerId AND r.mode = :mode', ctx)
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .limit(filter.limit + 1);
    if (filter.paymentReference) query.andWhere('r.payment_reference = :paymentReference', { paymentReference: filter.paymentReference });
    if (filter.cursor) query.andWhere('(r.created_at, r.id) < (:createdAt, :id)', decodeCursor(filter.cursor));
    return toPage(await query.getMany(), filter.limit, (r) => r);
  }

  /**
   * The provider's word on a refund (its callback). Unknown to us yet — the provider answered before
   * we stored its id — is refused with 503 so the provider delivers it again.
   * @throws service_unavailable
   */
  async onProviderRefund(mode: Mode, update: ProviderRefund): Promise<void> {
    const refund = await this.refunds.findOneBy({ mode, providerRefundId: update.providerId });
    if (refund) return this.settle(refund, update.status);
    const awaitingId = await this.refunds.existsBy({ mode, paymentReference: update.transactionReference, status: 'pending', providerRefundId: IsNull() });
    if (awaitingId) throw new DomainError('service_unavailable', 'The refund is still being recorded; deliver the callback again.');
  }

  private async record(ctx: DeveloperContext, input: NewRefund, requested: Amount | undefined, idempotencyKey: string | undefined): Promise<RefundEntity> {
    return inTransaction(this.dataSource, async (manager) => {
      const payment = await lockPayment(manager, ctx, input.paymentReference);
      if (payment.status !== 'success') throw new DomainError('invalid_state', `The payment is ${payment.status}; only a successful payment can be refunded.`);
      const refundable = Amount.parse(payment.amount).minus(Amount.parse(payment.amount_refunded));
      if (refundable.isZero()) throw new DomainError('invalid_state', 'The payment is already fully refunded.');
      const amount = requested ?? refundable;
      if (amount.gt(refundable)) {
        throw new DomainError('validation_error', 'The refund is larger than what is left to refund.', { amount: [`must be at most ${refundable} ${payment.currency}`] });
      }
      const now = this.clock.now();
      const refund = this.refunds.create({
        id: randomUUID(),
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: `RFD_${randomBytes(10).toString('hex')}`,
        paymentId: payment.id,
        paymentReference: payment.reference,
        amount,
        currency: payment.currency,
        reason: input.reason ?? null,
        status: 'pending',
        idempotencyKey: idempotencyKey ?? null,
        providerRefundId: null,
        createdAt: now,
        processedAt: null,
        updatedAt: now,
      });
      // The debit first: it is what can be refused (insufficient_wallet_balance), and then nothing is written.
      await this.ledger.post(manager, ctx, {
        currency: payment.currency,
        sourceType: 'refund',
        sourceId: refund.id,
        kind: 'debit',
        reference: refund.reference,
        lines: refundLines(amount, `Refund of ${payment.reference}`),
      });
      await manager.query(`UPDATE payments SET amount_refunded = amount_refunded + $2, updated_at = $3 WHERE id = $1`, [payment.id, amount.toString(), now]);
      return manager.getRepository(RefundEntity).save(refund);
    });
  }

  /** Asks the provider to pay the customer back; our reference makes a repeated ask return the first refund. */
  private async submit(refund: RefundEntity): Promise<void> {
    const result = await this.provider.refund(refund.mode, { transactionReference: refund.paymentReference, amount: refund.amount, reference: refund.reference });
    await this.refunds.update({ id: refund.id, providerRefundId: IsNull() }, { providerRefundId: result.providerId, updatedAt: this.clock.now() });
    await this.settle({ ...refund, providerRefundId: result.providerId }, result.status);
  }

  /** Records the provider's outcome once: processed → `refund.completed`; failed → the debit is reversed. */
  private async settle(refund: RefundEntity, status: ProviderRefund['status']): Promise<void> {
    if (status === 'pending') return;
    await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const [rows] = (await manager.query(
        `UPDATE refunds SET status = $2, processed_at = $3, updated_at = $3 WHERE id = $1 AND status = 'pending' RETURNING id`,
        [refund.id, status, now],
      )) as [unknown[], number];
      if (!rows.length) return; // already settled by a callback or another request
      const ctx = { developerId: refund.developerId, mode: refund.mode };
      if (status === 'processed') {
        const settled = await manager.getRepository(RefundEntity).findOneByOrFail({ id: refund.id });
        await this.events.emit(manager, ctx, 'refund.completed', { ...toRefundResponse(settled) });
        return;
      }
      await this.ledger.post(manager, ctx, {
        currency: refund.currency,
        sourceType: 'refund',
        sourceId: refund.id,
        kind: 'reversal',
        reference: refund.reference,
        lines: refundReversalLines(refund.amount),
      });
      await manager.query(`UPDATE payments SET amount_refunded = amount_refunded - $2, updated_at = $3 WHERE id = $1`, [refund.paymentId, refund.amount.toString(), now]);
    });
  }
}

/** @throws payment_not_found */
async function lockPayment(manager: EntityManager, ctx: DeveloperContext, reference: string): Promise<LockedPayment> {
  const rows: LockedPayment[] = await manager.query(
    `SELECT id, reference, status, amount, amount_refunded, currency FROM payments WHERE reference = $1 AND developer_id = $2 AND mode = $3 FOR UPDATE`,
    [reference, ctx.developerId, ctx.mode],
  );
  if (!rows[0]) throw new DomainError('payment_not_found', 'No such payment.');
  return rows[0];
}

/** @throws validation_error */
function parseRefundAmount(input: number): Amount {
  try {
    const amount = Amount.parse(input);
    if (!amount.isPositive()) throw new InvalidAmountError('out-of-range', 'amount must be greater than 0');
    return amount;
  } catch (error) {
    if (error instanceof InvalidAmountError) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [error.message] });
    throw error;
  }
}
