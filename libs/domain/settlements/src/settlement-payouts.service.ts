import { Injectable, Logger } from '@nestjs/common';
import { LedgerService, releaseReserveLines, settleReservedLines } from '@gateway/domain/ledger';
import { isProviderRefusal } from '@gateway/domain/payments';
import { EventsService } from '@gateway/domain/webhooks';
import { PaymentProvider, type ProviderTransfer } from '@gateway/provider';
import { canMove, Clock, DomainError, inTransaction, type ServingRequest, tenantOf } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { SettlementEntity } from './settlement.entity';
import { toSettlementResponse } from './settlement.mapper';
import { SETTLEMENT_TRANSITIONS, type SettlementTransition } from './settlement-status';
import { SettlementsRepository } from './settlements.repository';

/**
 * An approved or paying settlement nobody touched for this long is picked up by the
 * reconciliation scan: its payout was never sent (the process died after approval), or its answer
 * and callback never came.
 */
export const SETTLEMENT_RECONCILE_AFTER_MS = 2 * 60_000;

/**
 * Pays approved settlements out through the provider, under the settlement's own reference (the
 * provider refuses a reused one, so the bank is paid once), and settles each once from the
 * provider's word: its answer, its callback (which drives a verify) or the reconciliation scan.
 * Completed: the reserved amount leaves as a `settlement` entry and `withdrawal.completed` is
 * sent; failed: the reservation is released.
 */
@Injectable()
export class SettlementPayoutsService {
  private readonly logger = new Logger(SettlementPayoutsService.name);

  constructor(
    private readonly repository: SettlementsRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims an approved settlement (`processing`) and asks the provider to pay it. Only one caller
   * claims it; the others return.
   * @throws gateway_timeout, provider_error (no answer: it stays `processing` for the scan)
   */
  async payOut(id: string, within?: ServingRequest): Promise<void> {
    const now = this.clock.now();
    const claimed = await inTransaction(this.dataSource, (manager) => this.repository.move(manager, id, 'process', {}, now));
    if (!claimed) return;
    await this.submit(await this.repository.findById(id), 'first', within);
  }

  /**
   * The provider's callback about a payout of ours (`stl_…`): settles it from a verify.
   * @throws gateway_timeout, provider_error (the provider delivers the callback again)
   */
  async onProviderTransfer(reference: string, within?: ServingRequest): Promise<void> {
    const settlement = await this.repository.findAnyByReference(reference);
    if (!settlement) {
      this.logger.log(`provider transfer callback for ${reference}: not a settlement of ours; acknowledged`);
      return;
    }
    const known = await this.provider.verifyTransfer('live', reference);
    if (known) await this.apply(settlement, known, within);
  }

  /**
   * Settlements approved or paying and untouched for SETTLEMENT_RECONCILE_AFTER_MS: each is
   * claimed, verified at the provider and settled from the answer, or sent when the provider never
   * got it. Returns how many were looked at.
   */
  async reconcile(limit = 50): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repository.claimStale(['approved', 'processing'], now, new Date(now.getTime() - SETTLEMENT_RECONCILE_AFTER_MS), limit);
    for (const id of claimed) {
      try {
        const settlement = await this.repository.findById(id);
        if (settlement.status === 'approved') {
          const moved = await inTransaction(this.dataSource, (manager) => this.repository.move(manager, id, 'process', {}, this.clock.now()));
          if (!moved) continue;
        }
        await this.submit(await this.repository.findById(id), 'again');
      } catch (error) {
        this.logger.warn(`settlement ${id} is still being paid out: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return claimed.length;
  }

  /** Verifies first when it may have been sent before; sends it when the provider does not know it. */
  private async submit(settlement: SettlementEntity, attempt: 'first' | 'again', within?: ServingRequest): Promise<void> {
    if (attempt === 'again') {
      const known = await this.provider.verifyTransfer('live', settlement.reference);
      if (known) return this.apply(settlement, known, within);
    }
    let answer: ProviderTransfer;
    try {
      const recipient = await this.provider.createTransferRecipient('live', {
        name: settlement.accountName,
        accountNumber: settlement.accountNumber,
        bankCode: settlement.bankCode,
        currency: settlement.currency,
      });
      answer = await this.provider.initiateTransfer('live', {
        reference: settlement.reference,
        amount: settlement.amount,
        currency: settlement.currency,
        recipientCode: recipient.providerRecipientCode,
        reason: `Settlement ${settlement.reference}`,
      });
    } catch (error) {
      if (!isProviderRefusal(error)) throw error;
      this.logger.warn(`settlement ${settlement.reference} refused by the provider (${error.providerType ?? 'no type'}/${error.providerCode ?? 'no code'})`);
      return this.settle(settlement, 'fail', error.providerMessage, within);
    }
    await this.apply(settlement, answer, within);
  }

  /** @throws provider_error when the provider's account is not this payout's (nothing settled) */
  private async apply(settlement: SettlementEntity, known: ProviderTransfer, within?: ServingRequest): Promise<void> {
    if (!known.amount.equals(settlement.amount) || known.currency !== settlement.currency) {
      this.logger.error(`settlement ${settlement.reference}: the provider reports ${known.amount} ${known.currency}, not ${settlement.amount} ${settlement.currency}; nothing settled`);
      throw new DomainError('provider_error', 'The provider reported a different payout; nothing was settled.');
    }
    if (!settlement.providerTransferCode) await this.repository.recordProviderCode(settlement.id, known.providerTransferCode, this.clock.now());
    if (known.status === 'success') return this.settle(settlement, 'complete', null, within);
    if (known.status === 'failed' || known.status === 'reversed') return this.settle(settlement, 'fail', known.failureReason ?? 'The provider could not pay the settlement.', within);
    if (known.status === 'otp_required') this.logger.warn(`settlement ${settlement.reference} waits for an OTP at the provider: disable the transfer OTP for automated payouts`);
  }

  /** The move with its ledger posting (and, completed, its event), in one transaction on the locked row; once. */
  private async settle(settlement: SettlementEntity, transition: Extract<SettlementTransition, 'complete' | 'fail'>, failureReason: string | null, within?: ServingRequest): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.repository.lock(manager, settlement.id);
      if (!canMove(SETTLEMENT_TRANSITIONS, transition, locked.status)) {
        if (transition === 'fail' && locked.status === 'completed') this.logger.error(`settlement ${locked.reference} was paid, and the provider now reports it failed or reversed: check it by hand`);
        return;
      }
      const now = this.clock.now();
      await this.repository.move(manager, locked.id, transition, { completedAt: now, failureReason }, now);
      const ctx = tenantOf({ developerId: locked.developerId, mode: 'live' }, within);
      const completed = transition === 'complete';
      await this.ledger.post(manager, ctx, {
        currency: locked.currency,
        sourceType: 'settlement',
        sourceId: locked.id,
        kind: completed ? 'settle' : 'release',
        reference: locked.reference,
        lines: completed
          ? settleReservedLines(locked.amount, { entryType: 'settlement', description: `Settled to ${locked.accountName}` })
          : releaseReserveLines(locked.amount, `Settlement ${locked.reference} failed: funds released`),
      });
      if (completed) await this.events.emit(manager, ctx, 'withdrawal.completed', toSettlementResponse(await this.repository.findById(locked.id, manager)));
    });
  }
}
