import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Mode, TransferResponse, TransferSource, TransferStatus } from '@gateway/contracts';
import { requestFingerprint } from '@gateway/domain/idempotency';
import { LedgerService, payoutReturnLines, releaseReserveLines, reserveLines, settleReservedLines } from '@gateway/domain/ledger';
import { amountLimits, isProviderRefusal, parseRequestCurrency } from '@gateway/domain/payments';
import { EventsService } from '@gateway/domain/webhooks';
import { PaymentProvider, type ProviderTransfer } from '@gateway/provider';
import { allPages, type Amount, APP_CONFIG, type AppConfig, canMove, checkAmount, Clock, type Currency, type DeveloperContext, DomainError, inTransaction, type Page, READ_THROUGH_PAGE_SIZE, type ServingRequest, tenantOf, timeOrderedHex, timeOrderedUuid } from '@gateway/platform';
import { DataSource } from 'typeorm';
import type { TransferEntity } from './transfer.entity';
import { toTransferResponse, type TransferView } from './transfer.mapper';
import type { TransferRecipientEntity } from './transfer-recipient.entity';
import { TransferRecipientsService } from './transfer-recipients.service';
import { TRANSFER_TRANSITIONS, type TransferTransition } from './transfer-status';
import { isDuplicateIdempotencyKey, type TransferListFilter, TransfersRepository } from './transfers.repository';

/**
 * A pending transfer nobody touched for this long is asked about by the reconciliation scan (and
 * sent again when the provider never got it). Longer than a provider call may take, so a request
 * still waiting for its answer is not raced.
 */
export const RECONCILE_AFTER_MS = 2 * 60_000;

/** The spec's two request forms, validated: where the money goes and what the statement says. */
export type NewTransfer = {
  amount: number;
  currency?: string;
  reason?: string;
} & ({ source: 'wallet'; recipientCode: string } | { source: 'bank'; bankCode: string; accountNumber: string; accountName: string });

/**
 * Payouts from the wallet to a bank account (table `transfers`). Creating one reserves its amount
 * (available → reserved) in the transaction that stores it, checked against the available balance
 * (422 `insufficient_wallet_balance`, nothing moved); the provider is then asked to pay under our
 * own reference, so asking again never pays twice (it refuses a reused reference, and the adapter
 * answers with the first transfer). The provider's word — its answer, its callback, or the
 * reconciliation scan's verify — settles it once:
 * - success: the reserved amount is debited (`debit`, to bank_settlements); `transfer.success`;
 * - failed (or refused outright): the reservation is released; `transfer.failed`;
 * - reversed: the money is back in the available balance; `transfer.failed` with status `reversed`.
 */
@Injectable()
export class TransfersService {
  private readonly logger = new Logger(TransfersService.name);

  constructor(
    private readonly repository: TransfersRepository,
    private readonly recipients: TransferRecipientsService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Reserves the amount and asks the provider to pay it. A retry with the same Idempotency-Key
   * answers the same transfer, asking the provider about it again when its first answer never
   * came; the same key with another request is refused.
   * @throws invalid_currency, validation_error, capability_not_supported, insufficient_wallet_balance,
   *         idempotency_key_reused, gateway_timeout, provider_error
   */
  async create(ctx: DeveloperContext, input: NewTransfer, idempotencyKey?: string): Promise<TransferView> {
    const currency = parseRequestCurrency(input.currency);
    const checked = checkAmount(input.amount, currency, amountLimits(this.config));
    if (!checked.ok) throw new DomainError('validation_error', 'The amount is not valid.', { amount: [checked.message] });
    this.provider.capabilities(ctx.mode).require('transfers', currency);
    const hash = requestFingerprint({ ...input, amount: checked.amount.toString(), currency });

    const earlier = idempotencyKey ? await this.forKey(ctx, idempotencyKey, hash) : null;
    if (earlier) return this.resumed(earlier, ctx);

    const recipient =
      input.source === 'wallet'
        ? await this.recipients.require(ctx, input.recipientCode)
        : await this.recipients.findOrCreate(ctx, { bankCode: input.bankCode, accountNumber: input.accountNumber, currency });
    if (recipient.currency !== currency) {
      throw new DomainError('validation_error', 'The currency does not match the recipient.', { currency: [`must be ${recipient.currency}, the recipient's currency`] });
    }
    const { transfer, recorded } = await this.recordOnce(ctx, { source: input.source, amount: checked.amount, reason: input.reason ?? null, recipient, hash, idempotencyKey });
    if (!recorded) return this.resumed(transfer, ctx);
    await this.submit(transfer, recipient, 'first', ctx);
    return this.view(await this.repository.findById(transfer.id));
  }

  /** @throws transfer_not_found (also another developer's or the other mode's transfer) */
  async get(ctx: DeveloperContext, reference: string): Promise<TransferView> {
    const transfer = await this.repository.findByReference(ctx, reference);
    if (!transfer) throw new DomainError('transfer_not_found', 'No such transfer.');
    return this.view(transfer);
  }

  /** @throws validation_error (a recipient filter that names no recipient of the tenant) */
  async list(ctx: DeveloperContext, filter: Omit<TransferListFilter, 'recipientId'> & { recipientCode?: string }): Promise<Page<TransferView>> {
    const recipientId = filter.recipientCode ? (await this.recipients.require(ctx, filter.recipientCode)).id : undefined;
    const page = await this.repository.list(ctx, { ...filter, recipientId });
    const recipients = await this.recipients.byIds(page.items.map((t) => t.recipientId));
    return { ...page, items: page.items.map((transfer) => ({ transfer, recipient: recipients.get(transfer.recipientId) as TransferRecipientEntity })) };
  }

  /** Exports (docs/exports.md): the transfers created in [from, to), as the list returns them (same order, same wire form), a page at a time. */
  exportRows(ctx: DeveloperContext, range: { from: Date; to: Date; status?: TransferStatus; currency?: Currency }): AsyncGenerator<TransferResponse> {
    return allPages((cursor) => this.list(ctx, { ...range, limit: READ_THROUGH_PAGE_SIZE, cursor }), toTransferResponse);
  }

  /** How many rows exportRows yields (at the time of asking). */
  exportCount(ctx: DeveloperContext, range: { from: Date; to: Date; status?: TransferStatus; currency?: Currency }): Promise<number> {
    return this.repository.countCreated(ctx, range);
  }

  /**
   * The provider's callback about a transfer (`transfer.success`, `.failed`, `.reversed`). Like a
   * charge callback, it drives a verify: the transfer is settled from what the provider answers
   * now, so callbacks arriving late or out of order cannot settle it wrongly, and a redelivery
   * changes nothing. A transfer that is not ours (made on the provider's dashboard) is acknowledged.
   * @throws gateway_timeout, provider_error (the provider delivers the callback again)
   */
  async onProviderTransfer(mode: Mode, reference: string, within?: ServingRequest): Promise<void> {
    const transfer = await this.repository.findOfProvider(mode, reference);
    if (!transfer) {
      this.logger.log(`provider transfer callback for ${reference} (${mode}): not a transfer of ours; acknowledged`);
      return;
    }
    const known = await this.provider.verifyTransfer(mode, reference);
    if (!known) {
      this.logger.warn(`provider transfer callback for ${reference}: the provider does not know the transfer; acknowledged`);
      return;
    }
    await this.apply(transfer, known, within);
  }

  /**
   * Asks the provider about pending transfers nobody touched for RECONCILE_AFTER_MS — their answer
   * or callback never came, or the process died between reserving and sending — and settles each
   * from the answer, sending it (under the same reference) when the provider never got it. Each is
   * claimed first, so concurrent scans share the work. Returns how many were looked at.
   */
  async reconcilePending(limit = 50): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repository.claimStalePending(now, new Date(now.getTime() - RECONCILE_AFTER_MS), limit);
    for (const id of claimed) {
      const transfer = await this.repository.findById(id);
      try {
        const recipient = (await this.recipients.byIds([transfer.recipientId])).get(transfer.recipientId) as TransferRecipientEntity;
        await this.submit(transfer, recipient, 'again');
      } catch (error) {
        this.logger.warn(`transfer ${transfer.reference} is still unsettled: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return claimed.length;
  }

  /** The transfer an earlier request with this key made, asked about again while it waits for its first answer. */
  private async resumed(transfer: TransferEntity, within: DeveloperContext): Promise<TransferView> {
    const view = await this.view(transfer);
    if (transfer.status !== 'pending' || transfer.providerTransferCode) return view;
    await this.submit(transfer, view.recipient, 'again', within);
    return this.view(await this.repository.findById(transfer.id));
  }

  /**
   * The transfer an Idempotency-Key already made, when it was made for the same request.
   * @throws idempotency_key_reused
   */
  private async forKey(ctx: DeveloperContext, idempotencyKey: string, hash: string): Promise<TransferEntity | null> {
    const existing = await this.repository.findByIdempotencyKey(ctx, idempotencyKey);
    if (existing && existing.requestHash !== hash) {
      throw new DomainError('idempotency_key_reused', 'This idempotency key was used for another transfer; use a new key for a new transfer.');
    }
    return existing;
  }

  /** record(), except that losing a race for the same Idempotency-Key answers with the winner's transfer (`recorded: false`). */
  private async recordOnce(ctx: DeveloperContext, input: TransferRecord): Promise<{ transfer: TransferEntity; recorded: boolean }> {
    try {
      return { transfer: await this.record(ctx, input), recorded: true };
    } catch (error) {
      if (!input.idempotencyKey || !isDuplicateIdempotencyKey(error)) throw error;
      return { transfer: (await this.forKey(ctx, input.idempotencyKey, input.hash)) as TransferEntity, recorded: false };
    }
  }

  /** Stores the transfer and reserves its amount, together; a short balance rolls both back. */
  private record(ctx: DeveloperContext, input: TransferRecord): Promise<TransferEntity> {
    return inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const transfer: TransferEntity = {
        id: timeOrderedUuid(),
        developerId: ctx.developerId,
        mode: ctx.mode,
        // Lowercase and 16+ characters: Paystack's rule for transfer references.
        reference: `trf_${timeOrderedHex(12)}`,
        source: input.source,
        recipientId: input.recipient.id,
        amount: input.amount,
        currency: input.recipient.currency,
        reason: input.reason,
        status: 'pending',
        failureReason: null,
        idempotencyKey: input.idempotencyKey ?? null,
        requestHash: input.hash,
        providerTransferCode: null,
        createdAt: now,
        completedAt: null,
        updatedAt: now,
      };
      const inserted = await this.repository.insert(manager, transfer);
      // Refused when the available balance cannot cover it (insufficient_wallet_balance): the row goes too.
      await this.ledger.post(manager, ctx, {
        currency: transfer.currency,
        sourceType: 'transfer',
        sourceId: transfer.id,
        kind: 'reserve',
        reference: transfer.reference,
        lines: reserveLines(transfer.amount, `Transfer ${transfer.reference} to ${input.recipient.accountName}`),
      });
      return inserted;
    });
  }

  /**
   * Asks the provider to pay the transfer under its reference. One that may have been sent before
   * (`again`) is first verified: the provider's word on it settles it, and only a transfer the
   * provider never got is sent. A refusal fails the transfer (its reservation released); no answer
   * leaves it pending for a retry or the scan, and throws.
   * @throws gateway_timeout, provider_error (not a refusal: the outcome is unknown)
   */
  private async submit(transfer: TransferEntity, recipient: TransferRecipientEntity, attempt: 'first' | 'again', within?: ServingRequest): Promise<void> {
    if (attempt === 'again') {
      const known = await this.provider.verifyTransfer(transfer.mode, transfer.reference);
      if (known) return this.apply(transfer, known, within);
    }
    let answer: ProviderTransfer;
    try {
      answer = await this.provider.initiateTransfer(transfer.mode, {
        reference: transfer.reference,
        amount: transfer.amount,
        currency: transfer.currency,
        recipientCode: recipient.providerRecipientCode,
        reason: transfer.reason ?? undefined,
      });
    } catch (error) {
      if (!isProviderRefusal(error)) throw error;
      this.logger.warn(`transfer ${transfer.reference} refused by the provider (${error.providerType ?? 'no type'}/${error.providerCode ?? 'no code'})`);
      return this.settle(transfer, 'fail', error.providerMessage, within);
    }
    await this.apply(transfer, answer, within);
  }

  /**
   * Settles the transfer from the provider's account of it, once. An account that does not match
   * the transfer (another amount or currency) moves nothing and is an error: money is never settled
   * on an answer that is not this transfer's.
   * @throws provider_error
   */
  private async apply(transfer: TransferEntity, known: ProviderTransfer, within?: ServingRequest): Promise<void> {
    if (!known.amount.equals(transfer.amount) || known.currency !== transfer.currency) {
      this.logger.error(`transfer ${transfer.reference}: the provider reports ${known.amount} ${known.currency}, not ${transfer.amount} ${transfer.currency}; nothing settled`);
      throw new DomainError('provider_error', 'The provider reported a different transfer; nothing was settled.');
    }
    if (!transfer.providerTransferCode) await this.repository.recordProviderCode(transfer.id, known.providerTransferCode, this.clock.now());
    if (known.status === 'success') return this.settle(transfer, 'succeed', null, within);
    if (known.status === 'failed') return this.settle(transfer, 'fail', known.failureReason ?? 'The provider could not pay the transfer.', within);
    if (known.status === 'reversed') return this.settle(transfer, 'reverse', known.failureReason ?? 'The bank returned the transfer.', within);
    if (known.status === 'otp_required') {
      this.logger.warn(`transfer ${transfer.reference} waits for an OTP at the provider: disable the provider's transfer OTP for automated payouts (docs/transfers.md)`);
    }
  }

  /**
   * Moves the transfer along `transition` with its ledger posting and event, in one transaction; a
   * no-op when it moved already. `within`: the request that learnt the outcome, the merchant's or
   * the provider's callback (its id is what the posting and event record); none for the scheduler.
   */
  private async settle(transfer: TransferEntity, transition: TransferTransition, failureReason: string | null, within?: ServingRequest): Promise<void> {
    // The event's recipient is read first, on a connection of its own that is released before the
    // transaction begins. Read inside it, it took a second connection from the pool while this one
    // held the wallet's slots: with every other connection waiting for those slots (concurrent
    // debits), it waited for ever, and so did they.
    const { recipient } = await this.view(transfer);
    await inTransaction(this.dataSource, async (manager) => {
      // Locked first: what the settlement posts depends on the status it moves from (a reversal after success returns the paid amount).
      const before = await this.repository.lock(manager, transfer.id);
      if (!canMove(TRANSFER_TRANSITIONS, transition, before.status)) return; // settled already, by a callback or another request
      await this.repository.settle(manager, transfer.id, transition, failureReason, this.clock.now());
      const ctx = tenantOf(transfer, within);
      await this.ledger.post(manager, ctx, { currency: transfer.currency, sourceType: 'transfer', sourceId: transfer.id, reference: transfer.reference, ...postingFor(transition, before) });
      const settled = await this.repository.findById(transfer.id, manager);
      await this.events.emit(manager, ctx, transition === 'succeed' ? 'transfer.success' : 'transfer.failed', toTransferResponse({ transfer: settled, recipient }));
    });
  }

  private async view(transfer: TransferEntity): Promise<TransferView> {
    const recipient = (await this.recipients.byIds([transfer.recipientId])).get(transfer.recipientId) as TransferRecipientEntity;
    return { transfer, recipient };
  }
}

interface TransferRecord {
  source: TransferSource;
  amount: Amount;
  reason: string | null;
  recipient: TransferRecipientEntity;
  hash: string;
  idempotencyKey?: string;
}

/**
 * The ledger movement of a settlement: paid out of the reservation, the reservation released, or —
 * a transfer reversed after it was paid — the paid amount returned to the available balance.
 */
function postingFor(transition: TransferTransition, before: TransferEntity): { kind: string; lines: ReturnType<typeof reserveLines> } {
  if (transition === 'succeed') return { kind: 'settle', lines: settleReservedLines(before.amount, { entryType: 'debit', description: `Transfer ${before.reference} paid out` }) };
  if (transition === 'reverse' && before.status === 'success') return { kind: 'return', lines: payoutReturnLines(before.amount, `Transfer ${before.reference} reversed: funds returned`) };
  return { kind: 'release', lines: releaseReserveLines(before.amount, `Transfer ${before.reference} ${transition === 'fail' ? 'failed' : 'reversed'}: funds released`) };
}
