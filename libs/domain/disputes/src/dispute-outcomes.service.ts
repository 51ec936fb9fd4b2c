import { Injectable, Logger } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { chargebackLossLines, LedgerService, releaseReserveLines, reserveLines } from '@gateway/domain/ledger';
import { PaymentsService } from '@gateway/domain/payments';
import { TestClocksService } from '@gateway/domain/test-clocks';
import { EventsService } from '@gateway/domain/webhooks';
import type { ProviderDispute } from '@gateway/provider';
import { Amount, Clock, type DeveloperContext, DomainError, inTransaction, randomHex, type ServingRequest, tenantOf, timeOrderedUuid } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { DisputeEntity } from './dispute.entity';
import { toDisputeResponse } from './dispute.mapper';
import type { DisputeClosing } from './dispute-status';
import { DisputesRepository, isDuplicateProviderDispute } from './disputes.repository';

/** When the provider names no deadline, the merchant gets the simulator's (and Paystack's usual) window. */
export const DEFAULT_EVIDENCE_WINDOW_MS = 2 * 24 * 60 * 60 * 1_000;

/**
 * The provider's word on a chargeback, and the money that follows it (docs/disputes.md):
 * - created once per provider dispute (unique per mode): the row, the hold (available → reserved,
 *   at most what is available: no bucket goes below zero) and `dispute.created` in one transaction;
 * - won: the hold is released (reserved → available) with `dispute.won`;
 * - lost (the bank's decision, or the evidence deadline): the hold is debited (reserved →
 *   provider_clearing, `debit`) with `dispute.lost`.
 * Each closing is one conditional status move, so a repeated callback or a racing scan changes nothing.
 */
@Injectable()
export class DisputeOutcomesService {
  private readonly logger = new Logger(DisputeOutcomesService.name);

  constructor(
    private readonly repository: DisputesRepository,
    private readonly payments: PaymentsService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly testClocks: TestClocksService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * A `charge.dispute.*` callback (or the sandbox's own answer, handled the same way): creates the
   * dispute the first time, then applies a decision. A dispute on a payment that is not ours is
   * acknowledged and logged (null). `under_review` from the provider changes nothing: ours moves
   * there when our evidence is accepted. `within`: the sandbox request applying it, if any.
   */
  async onProviderDispute(mode: Mode, notice: ProviderDispute, within?: ServingRequest): Promise<DisputeEntity | null> {
    const dispute = (await this.repository.findByProviderId(mode, notice.providerId)) ?? (await this.create(mode, notice, within));
    if (!dispute) return null;
    if (notice.status === 'won' || notice.status === 'lost') return (await this.close(dispute.id, notice.status === 'won' ? 'win' : 'lose', within)) ?? this.repository.findById(dispute.id);
    return dispute;
  }

  /**
   * Closes the dispute along `move` with its money and event, once; null when it was closed already
   * (or, for `expire`, is no longer open). `within`: the request this runs in, if any (its id is
   * what the posting and event record).
   */
  async close(id: string, move: DisputeClosing, within?: ServingRequest): Promise<DisputeEntity | null> {
    return inTransaction(this.dataSource, async (manager) => {
      const closed = await this.repository.move(manager, id, move, this.clock.now());
      if (!closed) return null;
      const ctx = tenantOf(closed, within);
      const won = closed.status === 'won';
      if (closed.heldAmount.isPositive()) {
        await this.ledger.post(manager, ctx, {
          currency: closed.currency,
          sourceType: 'dispute',
          sourceId: closed.id,
          kind: won ? 'release' : 'loss',
          reference: closed.reference,
          lines: won ? releaseReserveLines(closed.heldAmount, `Dispute ${closed.reference} won: funds released`) : chargebackLossLines(closed.heldAmount, `Dispute ${closed.reference} lost: chargeback`),
        });
      }
      await this.events.emit(manager, ctx, won ? 'dispute.won' : 'dispute.lost', toDisputeResponse(closed));
      return closed;
    });
  }

  private async create(mode: Mode, notice: ProviderDispute, within: ServingRequest | undefined): Promise<DisputeEntity | null> {
    const payment = await this.payments.findForProviderCallback(mode, notice.transactionReference);
    if (!payment || payment.currency !== notice.currency) {
      // Made on another integration of the provider account, or not a payment we know: nothing of ours to hold.
      this.logger.warn(`provider dispute ${notice.providerId} (${mode}) names no payment of ours (${notice.transactionReference}); acknowledged`);
      return null;
    }
    const ctx = tenantOf({ developerId: payment.developerId, mode }, within);
    const now = this.clock.now();
    // The deadline runs on the tenant's clock: a test clock running ahead moves the provider's
    // (real-time) deadline by as much, so the window the merchant has stays what the provider gave.
    const clockShiftMs = (await this.testClocks.now(ctx)).getTime() - now.getTime();
    // The provider never disputes more than was paid; a larger figure is capped rather than over-held.
    const amount = Amount.min(notice.amount, payment.amount);
    try {
      return await inTransaction(this.dataSource, async (manager) => {
        const dispute: DisputeEntity = {
          id: timeOrderedUuid(),
          developerId: payment.developerId,
          mode,
          reference: `DSP_${randomHex(10)}`,
          paymentId: payment.id,
          paymentReference: payment.reference,
          amount,
          heldAmount: Amount.zero(),
          currency: payment.currency,
          reason: notice.reason,
          status: 'open',
          evidence: null,
          submittedAt: null,
          evidenceDueAt: new Date((notice.dueAt?.getTime() ?? now.getTime() + DEFAULT_EVIDENCE_WINDOW_MS) + clockShiftMs),
          providerDisputeId: notice.providerId,
          resolvedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        // The row first: a repeated callback racing this one fails here, before touching the wallet.
        await this.repository.insert(manager, dispute);
        dispute.heldAmount = await this.hold(manager, ctx, dispute);
        await this.repository.recordHeld(manager, dispute.id, dispute.heldAmount);
        await this.events.emit(manager, ctx, 'dispute.created', toDisputeResponse(dispute));
        return dispute;
      });
    } catch (error) {
      if (!isDuplicateProviderDispute(error)) throw error;
      return this.repository.findByProviderId(mode, notice.providerId);
    }
  }

  /**
   * Reserves the disputed amount, or all that is available when that is less (zero: nothing is
   * posted). The balance read is not locked, so a debit may take money between the read and the
   * posting: the posting then refuses (insufficient, nothing written) after locking the wallet's
   * slots, and the second read — under those locks — is exact.
   */
  private async hold(manager: EntityManager, ctx: DeveloperContext, dispute: DisputeEntity): Promise<Amount> {
    for (let attempt = 1; ; attempt++) {
      const { available } = await this.ledger.balance(ctx, dispute.currency, manager);
      const held = Amount.min(dispute.amount, Amount.max(available, Amount.zero()));
      if (held.isZero()) return held;
      try {
        await this.ledger.post(manager, ctx, {
          currency: dispute.currency,
          sourceType: 'dispute',
          sourceId: dispute.id,
          kind: 'hold',
          reference: dispute.reference,
          lines: reserveLines(held, `Held for dispute ${dispute.reference}`),
        });
        return held;
      } catch (error) {
        if (attempt > 1 || !(error instanceof DomainError && error.code === 'insufficient_wallet_balance')) throw error;
      }
    }
  }
}
