import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Mode, RefundResponse, RefundStatus } from '@gateway/contracts';
import { AnalyticsService } from '@gateway/domain/analytics';
import { EventsService } from '@gateway/domain/webhooks';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { LedgerService, refundLines, refundReversalLines } from '@gateway/domain/ledger';
import { isProviderRefusal, PaymentRefundBalanceService } from '@gateway/domain/payments';
import { PaymentProvider, type ProviderRefund, type ProviderRefundNotice } from '@gateway/provider';
import { allPages, Amount, APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, inTransaction, InvalidAmountError, type Page, randomHex, READ_THROUGH_PAGE_SIZE, type ServingRequest, tenantOf, timeOrderedUuid } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { RefundEntity } from './refund.entity';
import { toRefundResponse } from './refund.mapper';
import type { RefundTransition } from './refund-status';
import { isDuplicateIdempotencyKey, type RefundListFilter, RefundsRepository } from './refunds.repository';

/** A payment's refunds matched against the provider's list at most (each takes money: a handful). */
const MATCH_LIMIT = 100;

export interface NewRefund {
  paymentReference: string;
  /** Major unit; omitted = what is left to refund. */
  amount?: number;
  reason?: string;
}

/**
 * Refunds of successful payments, full or partial (table `refunds`). The wallet pays for a refund:
 * the ledger debit, the payment's amount_refunded (moved by the payments module's
 * PaymentRefundBalanceService, which locks the payment row so concurrent refunds never refund more
 * than was paid) and the refund row commit together, the debit checked against the balance
 * atomically (422 `insufficient_wallet_balance`). The provider is then asked to pay the customer back.
 * Paystack's refund call takes no reference or idempotency key of ours, so before asking again — a
 * retry with the same Idempotency-Key, the resubmission scan — the payment's refunds are listed at
 * the provider and one it already made is adopted instead (docs/refunds.md):
 * - it refuses (and has no such refund): the refund is `failed` and its debit reversed in one transaction;
 * - no answer: the refund stays `pending` with its debit, to be looked for and asked again;
 * - it accepts: its id is stored, and its answer or callback settles the refund.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    private readonly repository: RefundsRepository,
    private readonly payments: PaymentRefundBalanceService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly analytics: AnalyticsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Records the refund and asks the provider for it. A refusal answers the refund `failed` (its
   * debit reversed). A retry with the same Idempotency-Key returns the refund, submitting it again
   * if the provider never accepted it; the same key with another payment, amount or reason is refused.
   * @throws payment_not_found, invalid_state (not successful, or fully refunded), validation_error,
   *         capability_not_supported, insufficient_wallet_balance, idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewRefund, idempotencyKey?: string): Promise<RefundEntity> {
    const requested = input.amount === undefined ? undefined : parseRefundAmount(input.amount);
    const hash = requestFingerprint({ payment_reference: input.paymentReference, amount: requested?.toString() ?? null, reason: input.reason ?? null });
    const existing = idempotencyKey ? await this.forKey(ctx, idempotencyKey, input, hash) : null;
    const { refund, recorded } = existing ? { refund: existing, recorded: false } : await this.recordOnce(ctx, input, requested, hash, idempotencyKey);
    // A refund recorded by this very request was never sent; any other may have reached the provider.
    if (refund.status === 'pending' && !refund.providerRefundId) await this.submit(refund, recorded ? 'first' : 'again', ctx);
    return this.repository.findById(refund.id);
  }

  /** @throws refund_not_found (also for another developer's or the other mode's refund) */
  async get(ctx: DeveloperContext, reference: string): Promise<RefundEntity> {
    const refund = await this.repository.findByReference(ctx, reference);
    if (!refund) throw new DomainError('refund_not_found', 'No such refund.');
    return refund;
  }

  list(ctx: DeveloperContext, filter: RefundListFilter): Promise<Page<RefundEntity>> {
    return this.repository.list(ctx, filter);
  }

  /** Exports (docs/exports.md): the refunds created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; status?: RefundStatus }): AsyncGenerator<RefundResponse> {
    return allPages((cursor) => this.repository.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), toRefundResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; status?: RefundStatus }): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /**
   * The provider's word on a refund (a `refund.*` callback). Paystack's callback names the refunded
   * transaction, not the refund (no id, and `refund_reference` is the processor's), so — like a
   * charge callback drives a verify — it drives a reconciliation: the payment's refunds are listed at
   * the provider and each of ours is settled from its provider refund, found by the stored id, or
   * adopted by amount when its request's answer was lost. Settling is once: a redelivery changes
   * nothing. Nothing is ever resubmitted here (that is the scan's job, after REFUND_RESUBMIT_AFTER_SECONDS).
   * @throws gateway_timeout, provider_error (the listing failed: the provider delivers it again)
   */
  async onProviderRefund(mode: Mode, notice: ProviderRefundNotice, within?: ServingRequest): Promise<void> {
    const ours = await this.repository.findOfPayment(mode, notice.transactionReference, MATCH_LIMIT);
    if (!ours.some((refund) => refund.status === 'pending')) {
      // Not ours (made on the provider's dashboard), or settled already: nothing to ask about.
      this.logger.log(`provider refund callback (${notice.status}) for ${notice.transactionReference}: no pending refund of ours; acknowledged`);
      return;
    }
    try {
      await this.reconcile(mode, notice.transactionReference, within);
    } catch (error) {
      if (!isProviderRefusal(error)) throw error; // no answer: the provider delivers the callback again
      // A refusal would refuse every redelivery too: acknowledge; the resubmission scan and retries reconcile again.
      this.logger.warn(`provider refund callback for ${notice.transactionReference}: listing its refunds was refused (${error.providerCode ?? 'no code'}); acknowledged`);
    }
  }

  /**
   * Pending refunds nobody touched for REFUND_RESUBMIT_AFTER_SECONDS (two minutes by default): one
   * the provider never accepted (no provider id stored: its request timed out, crashed, or was never
   * retried) is resubmitted, after looking for it at the provider; one it accepted whose settling
   * callback never came is reconciled with the provider's list. The wait is longer than the provider
   * timeout (checked at boot), so a request still waiting for its answer is not raced: the provider
   * takes no idempotency key for refunds, and a second ask in flight would refund twice. Each is
   * claimed (its updated_at moved on) first, so concurrent scans share the work. Returns how many
   * were looked at, whatever the provider answered.
   */
  async resubmitUnaccepted(limit = 50): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repository.claimStalePending(now, new Date(now.getTime() - this.config.refunds.resubmitAfterMs), limit);
    for (const id of claimed) {
      const refund = await this.repository.findById(id);
      try {
        // Accepted already (its callback was lost): only asked about, never sent again.
        if (refund.providerRefundId) await this.reconcile(refund.mode, refund.paymentReference);
        else await this.submit(refund, 'again');
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
    const existing = await this.repository.findByIdempotencyKey(ctx, idempotencyKey);
    if (!existing) return null;
    // Refunds recorded before request hashes were kept can only be compared by payment.
    const same = existing.requestHash === null ? existing.paymentReference === input.paymentReference : existing.requestHash === hash;
    if (!same) throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another refund; use a new key for a new refund.');
    return existing;
  }

  /** record(), except that losing a race for the same Idempotency-Key answers with the winner's refund (`recorded: false`). */
  private async recordOnce(
    ctx: DeveloperContext,
    input: NewRefund,
    requested: Amount | undefined,
    hash: string,
    idempotencyKey: string | undefined,
  ): Promise<{ refund: RefundEntity; recorded: boolean }> {
    try {
      return { refund: await this.record(ctx, input, requested, hash, idempotencyKey), recorded: true };
    } catch (error) {
      if (!idempotencyKey || !isDuplicateIdempotencyKey(error)) throw error;
      return { refund: (await this.forKey(ctx, idempotencyKey, input, hash)) as RefundEntity, recorded: false };
    }
  }

  private async record(ctx: DeveloperContext, input: NewRefund, requested: Amount | undefined, hash: string, idempotencyKey: string | undefined): Promise<RefundEntity> {
    return inTransaction(this.dataSource, async (manager) => {
      // Locks the payment and takes the refund from what is left to refund: the checks come first.
      const reservation = await this.payments.reserve(manager, ctx, input.paymentReference, requested);
      // Refused before the debit and the refund row: the transaction rolls the reservation back.
      this.provider.capabilities(ctx.mode).require('refunds', reservation.currency);
      const now = this.clock.now();
      const refund: RefundEntity = {
        id: timeOrderedUuid(),
        developerId: ctx.developerId,
        mode: ctx.mode,
        reference: `RFD_${randomHex(10)}`,
        paymentId: reservation.paymentId,
        paymentReference: reservation.paymentReference,
        amount: reservation.amount,
        currency: reservation.currency,
        reason: input.reason ?? null,
        status: 'pending',
        idempotencyKey: idempotencyKey ?? null,
        requestHash: hash,
        providerRefundId: null,
        createdAt: now,
        processedAt: null,
        updatedAt: now,
      };
      // The debit can be refused (insufficient_wallet_balance): then the transaction, reservation included, rolls back.
      await this.ledger.post(manager, ctx, {
        currency: reservation.currency,
        sourceType: 'refund',
        sourceId: refund.id,
        kind: 'debit',
        reference: refund.reference,
        lines: refundLines(reservation.amount, `Refund of ${reservation.paymentReference}`),
      });
      return this.repository.insert(manager, refund);
    });
  }

  /**
   * Asks the provider to pay the customer back. The provider cannot tell a repeated ask from a new
   * refund, so a refund that may have been sent before (`again`) is first looked for among the
   * payment's refunds at the provider and adopted when there. A refusal — "Transaction has been
   * fully reversed" included, which is what a lost first answer looks like once the whole payment is
   * refunded — is checked the same way before the refund is failed (debit reversed): a refund the
   * provider made is never failed. No answer leaves it pending and throws.
   * @throws gateway_timeout, provider_error (not a refusal: the outcome is unknown)
   */
  private async submit(refund: RefundEntity, attempt: 'first' | 'again', within?: ServingRequest): Promise<void> {
    if (attempt === 'again' && (await this.reconcile(refund.mode, refund.paymentReference, within)).has(refund.id)) return;
    let result: ProviderRefund;
    try {
      result = await this.provider.refund(refund.mode, { transactionReference: refund.paymentReference, amount: refund.amount });
    } catch (error) {
      if (!isProviderRefusal(error)) throw error;
      if ((await this.reconcile(refund.mode, refund.paymentReference, within)).has(refund.id)) return;
      this.logger.warn(`refund ${refund.reference} refused by the provider (${error.providerType ?? 'no type'}/${error.providerCode ?? 'no code'}): ${error.providerMessage}`);
      return this.settle(refund, 'failed', within);
    }
    if ((await this.repository.recordProviderId(refund.id, result.providerId, this.clock.now())) === 'other') {
      this.logger.warn(`refund ${refund.reference}: provider refund ${result.providerId} not recorded, the refund has another one`);
      return;
    }
    // Recorded here, or `held`: adopted meanwhile by a callback's reconciliation that read the
    // provider's list before this answer. This answer's status may be the newer, so it settles the
    // refund too (settling is one conditional update: once, whoever comes first).
    await this.settle({ ...refund, providerRefundId: result.providerId }, result.status, within);
  }

  /**
   * Matches the payment's refunds with the provider's (List Refunds): each of ours with a provider id
   * is settled from that refund's status; each unsettled one without (its answer was lost) adopts
   * the oldest provider refund of the same amount and currency no refund of ours has, and is settled
   * from it. Returns the ids of our refunds that have a provider refund.
   * @throws gateway_timeout, provider_error
   */
  private async reconcile(mode: Mode, paymentReference: string, within?: ServingRequest): Promise<Set<string>> {
    const atProvider = await this.provider.listRefunds(mode, paymentReference);
    const ours = await this.repository.findOfPayment(mode, paymentReference, MATCH_LIMIT);
    const taken = new Set(ours.map((refund) => refund.providerRefundId).filter((id): id is string => id !== null));
    const matched = new Set<string>();
    for (const refund of ours) {
      let providerRefund = refund.providerRefundId === null ? undefined : atProvider.find((candidate) => candidate.providerId === refund.providerRefundId);
      if (refund.providerRefundId === null && refund.status === 'pending') {
        providerRefund = atProvider.find((candidate) => !taken.has(candidate.providerId) && candidate.currency === refund.currency && candidate.amount.equals(refund.amount));
        if (!providerRefund) continue;
        taken.add(providerRefund.providerId);
        const recorded = await this.repository.recordProviderId(refund.id, providerRefund.providerId, this.clock.now());
        if (recorded === 'other') continue;
        if (recorded === 'recorded') this.logger.log(`refund ${refund.reference} adopted provider refund ${providerRefund.providerId} (its first answer was lost)`);
        // `held`: the request the provider answered recorded it since `ours` was read (a callback
        // sent the moment the provider made the refund races that answer). The status read here may
        // be newer than the answer's, so it settles the refund all the same.
      }
      if (!providerRefund) continue;
      matched.add(refund.id);
      await this.settle(refund, providerRefund.status, within);
    }
    return matched;
  }

  /**
   * Records the provider's outcome once: processed → `refund.completed`; failed → the debit is
   * reversed. `within`: the request that learnt the outcome, the merchant's or the provider's
   * callback (its id is what the posting and event record); none for the scheduler.
   */
  private async settle(refund: RefundEntity, status: ProviderRefund['status'], within?: ServingRequest): Promise<void> {
    if (status === 'pending') return;
    const transition: RefundTransition = status === 'processed' ? 'process' : 'fail';
    await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      if (!(await this.repository.settle(manager, refund.id, transition, now))) return; // already settled by a callback or another request
      const ctx = tenantOf(refund, within);
      if (transition === 'process') {
        const settled = await this.repository.findById(refund.id, manager);
        await this.events.emit(manager, ctx, 'refund.completed', { ...toRefundResponse(settled) });
        await this.analytics.recordRefundProcessed(manager, ctx, { refundId: refund.id, currency: refund.currency, amount: refund.amount, processedAt: now });
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
      await this.payments.release(manager, { paymentId: refund.paymentId, amount: refund.amount });
    });
  }
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
