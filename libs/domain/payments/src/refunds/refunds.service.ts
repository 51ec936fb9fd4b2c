import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { EventsService } from '@gateway/domain/events';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { LedgerService, refundLines, refundReversalLines } from '@gateway/domain/ledger';
import { PaymentProvider, type ProviderRefund } from '@gateway/provider';
import { Amount, Clock, type Currency, decodeCursor, type DeveloperContext, DomainError, InvalidAmountError, inTransaction, type Page, toPage } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, IsNull, QueryFailedError, Repository } from 'typeorm';
import { isProviderRefusal } from '../provider-refusal';
import { RefundEntity } from './refund.entity';
import { toRefundResponse } from './refund.mapper';

/**
 * A refund the provider has not accepted (no provider id stored) and nobody touched for this long
 * is resubmitted by the scheduler's scan. Long enough that a request still waiting for the
 * provider's answer is not raced (which would be harmless anyway: the provider keys our refund
 * reference, and answers a concurrent duplicate with a 409 that leaves the refund pending).
 */
export const RESUBMIT_AFTER_MS = 2 * 60_000;
/** At most this many of a payment's unaccepted refunds are resubmitted to match a provider callback. */
const MATCH_LIMIT = 20;

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
 * with our refund reference as its idempotency key, so asking again — a retry with the same
 * Idempotency-Key, the resubmission scan, or matching a callback — never refunds twice:
 * - it refuses: the refund is `failed` and its debit reversed (a credit posting) in one transaction;
 * - no answer: the refund stays `pending` with its debit, to be asked again;
 * - it accepts: its id is stored, and its answer or callback settles the refund.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    @InjectRepository(RefundEntity) private readonly refunds: Repository<RefundEntity>,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the refund and asks the provider for it. A refusal answers the refund `failed` (its
   * debit reversed). A retry with the same Idempotency-Key returns the refund, submitting it again
   * if the provider never accepted it; the same key with another payment, amount or reason is refused.
   * @throws payment_not_found, invalid_state (not successful, or fully refunded), validation_error,
   *         insufficient_wallet_balance, idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewRefund, idempotencyKey?: string): Promise<RefundEntity> {
    const requested = input.amount === undefined ? undefined : parseRefundAmount(input.amount);
    const hash = requestFingerprint({ payment_reference: input.paymentReference, amount: requested?.toString() ?? null, reason: input.reason ?? null });
    const refund = (idempotencyKey ? await this.forKey(ctx, idempotencyKey, input, hash) : null) ?? (await this.recordOnce(ctx, input, requested, hash, idempotencyKey));
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
   * The provider's word on a refund (its callback). A refund whose provider id we never stored (its
   * request timed out or crashed after the provider accepted it) is found by asking the provider
   * again for the payment's unaccepted refunds — it answers each with the refund it already made —
   * and then settled. Answered 503 (so the provider delivers it again) only while that asking failed.
   * @throws service_unavailable
   */
  async onProviderRefund(mode: Mode, update: ProviderRefund): Promise<void> {
    const known = await this.refunds.findOneBy({ mode, providerRefundId: update.providerId });
    if (known) return this.settle(known, update.status);
    const unaccepted = await this.refunds.find({
      where: { mode, paymentReference: update.transactionReference, status: 'pending', providerRefundId: IsNull() },
      order: { createdAt: 'ASC' },
      take: MATCH_LIMIT,
    });
    let unanswered = false;
    for (const candidate of unaccepted) {
      try {
        await this.submit(candidate);
      } catch (error) {
        unanswered = true;
        this.logger.warn(`refund ${candidate.reference} could not be resubmitted to match a callback: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const matched = await this.refunds.findOneBy({ mode, providerRefundId: update.providerId });
    if (matched) return this.settle(matched, update.status);
    // Otherwise not one of ours (made at the provider directly), unless some refund could not be asked about.
    if (unanswered) throw new DomainError('service_unavailable', 'The refund is still being recorded; deliver the callback again.');
  }

  /**
   * Resubmits refunds the provider never accepted (no provider id stored) and nobody touched for
   * RESUBMIT_AFTER_MS: their request timed out, crashed, or was never retried. Each is claimed
   * (its updated_at moved on) before it is sent, so concurrent scans share the work. Returns how
   * many were resubmitted, whatever the provider answered.
   */
  async resubmitUnaccepted(limit = 50): Promise<number> {
    const now = this.clock.now();
    const [claimed] = (await this.dataSource.query(
      `UPDATE refunds SET updated_at = $1
        WHERE id IN (SELECT id FROM refunds WHERE status = 'pending' AND provider_refund_id IS NULL AND updated_at < $2
                      ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, new Date(now.getTime() - RESUBMIT_AFTER_MS), limit],
    )) as [Array<{ id: string }>, number];
    for (const { id } of claimed) {
      const refund = await this.refunds.findOneByOrFail({ id });
      try {
        await this.submit(refund);
      } catch (error) {
        this.logger.warn(`refund ${refund.reference} is still not accepted by the provider: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return claimed.length;
  }

  /**
   * The refund an Idempotency-Key already made, when it was made for the same request.
   * @throws idempotency_key_reused
   */
  private async forKey(ctx: DeveloperContext, idempotencyKey: string, input: NewRefund, hash: string): Promise<RefundEntity | null> {
    const existing = await this.refunds.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, idempotencyKey });
    if (!existing) return null;
    // Refunds recorded before request hashes were kept can only be compared by payment.
    const same = existing.requestHash === null ? existing.paymentReference === input.paymentReference : existing.requestHash === hash;
    if (!same) throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another refund; use a new key for a new refund.');
    return existing;
  }

  /** record(), except that losing a race for the same Idempotency-Key answers with the winner's refund. */
  private async recordOnce(ctx: DeveloperContext, input: NewRefund, requested: Amount | undefined, hash: string, idempotencyKey: string | undefined): Promise<RefundEntity> {
    try {
      return await this.record(ctx, input, requested, hash, idempotencyKey);
    } catch (error) {
      const lostRace = idempotencyKey && error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === 'refunds_idempotency_key';
      if (!lostRace) throw error;
      return (await this.forKey(ctx, idempotencyKey, input, hash)) as RefundEntity;
    }
  }

  private async record(ctx: DeveloperContext, input: NewRefund, requested: Amount | undefined, hash: string, idempotencyKey: string | undefined): Promise<RefundEntity> {
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
        requestHash: hash,
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

  /**
   * Asks the provider to pay the customer back; our reference makes a repeated ask return the
   * first refund. A refusal fails the refund (debit reversed); no answer leaves it pending and throws.
   * @throws gateway_timeout, provider_error (not a refusal: the outcome is unknown)
   */
  private async submit(refund: RefundEntity): Promise<void> {
    let result: ProviderRefund;
    try {
      result = await this.provider.refund(refund.mode, { transactionReference: refund.paymentReference, amount: refund.amount, reference: refund.reference });
    } catch (error) {
      if (!isProviderRefusal(error)) throw error;
      this.logger.warn(`refund ${refund.reference} refused by the provider: ${error.providerMessage}`);
      return this.settle(refund, 'failed');
    }
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
