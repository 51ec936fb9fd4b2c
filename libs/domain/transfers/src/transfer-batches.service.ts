import { Inject, Injectable, Logger } from '@nestjs/common';
import { type FieldErrors, TRANSFER_BULK_MAX_ITEMS } from '@gateway/contracts';
import { LedgerService } from '@gateway/domain/ledger';
import { amountLimits, parseRequestCurrency } from '@gateway/domain/payments';
import { EventsService } from '@gateway/domain/webhooks';
import { PaymentProvider, ProviderRejectedError } from '@gateway/provider';
import { Amount, APP_CONFIG, type AppConfig, checkAmount, Clock, type Currency, type DeveloperContext, DomainError, enqueueJob, inTransaction, randomHex } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { TransferBatchEntity, TransferBatchItemPayload } from './transfer-batch.entities';
import { toTransferBatchResponse, type TransferBatchView } from './transfer-batch.mapper';
import { type ClaimedTransferItem, TransferBatchesRepository, type TransferItemOutcome } from './transfer-batches.repository';
import { TransferRecipientsService } from './transfer-recipients.service';
import { TransfersRepository } from './transfers.repository';
import { type NewTransfer, TransfersService } from './transfers.service';

/** The job-queue task that processes a transfer batch (registered by the scheduler's worker). */
export const TRANSFER_BATCH_TASK = 'transfer_batch';

/**
 * Items of one batch worked on at once by one worker. An item spends most of its time waiting for
 * the provider's answer; a few at once overlap those waits, while each item's reservation still
 * takes the wallet's lock on its own (items are claimed in order, so it is mostly the last items
 * that a short balance refuses).
 */
const ITEM_LANES = 4;

/**
 * Provider calls one item may make at most (bank list, account resolution, saving the recipient,
 * verifying and sending the transfer): a claim older than that many provider timeouts (plus
 * MARGIN_MS for the database work) belongs to a worker that died or hangs, and is taken over.
 */
const PROVIDER_CALLS_PER_ITEM = 5;
const MARGIN_MS = 10_000;

export interface NewTransferBatch {
  /** Every item's currency (NGN when absent); an item may repeat it, never name another. */
  currency?: string;
  /** Each in one of the two forms of a single transfer, shape-checked by the caller. */
  items: NewTransfer[];
}

/**
 * Bulk transfers (tables `transfer_batches`, `transfer_batch_items`). A batch is checked as a whole
 * — every item (errors keyed `items.<index>.<field>`), then the sum of its amounts against the
 * available balance — and stored with its items and a job on the PostgreSQL job queue in one
 * transaction. Nothing is reserved then: each item reserves its own amount when its transfer is
 * made, through TransfersService.create, so an item the balance can no longer cover (another payout
 * came first) fails with `insufficient_wallet_balance` and the others go on.
 *
 * Each item's transfer is made under the idempotency key `batch:<batch id>:<position>` (the id is
 * internal, so no key a merchant sends can meet it): a re-run of the item (a crash, a retried job,
 * a second worker after the claim went stale) finds its transfer instead of making another, and a
 * transfer that was reserved but never sent is sent then, under its own reference. An item's
 * result is written only under the claim that ran it. The batch completes, with `batch.completed`,
 * in the transaction that sees no open item.
 */
@Injectable()
export class TransferBatchesService {
  private readonly logger = new Logger(TransferBatchesService.name);

  constructor(
    private readonly repository: TransferBatchesRepository,
    private readonly transfersRepository: TransfersRepository,
    private readonly transfers: TransfersService,
    private readonly recipients: TransferRecipientsService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly provider: PaymentProvider,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * @throws validation_error (errors keyed `items.<index>.<field>`), invalid_currency,
   *         capability_not_supported, insufficient_wallet_balance (the batch's total is above the
   *         available balance: nothing stored), gateway_timeout / provider_error (the bank list)
   */
  async create(ctx: DeveloperContext, input: NewTransferBatch): Promise<TransferBatchView> {
    if (input.items.length === 0 || input.items.length > TRANSFER_BULK_MAX_ITEMS) {
      throw new DomainError('validation_error', 'The request is invalid.', { items: [`must hold 1 to ${TRANSFER_BULK_MAX_ITEMS} items`] });
    }
    const currency = parseRequestCurrency(input.currency);
    this.provider.capabilities(ctx.mode).require('transfers', currency);
    const amounts = await this.check(ctx, currency, input.items);
    const total = Amount.sum(amounts);
    const { available } = await this.ledger.balance(ctx, currency);
    if (total.gt(available)) {
      throw new DomainError('insufficient_wallet_balance', `The batch's total, ${total.toString()} ${currency}, is more than the available balance, ${available.toString()} ${currency}; nothing was created.`);
    }
    const batch = await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const stored = await this.repository.insert(
        manager,
        { developerId: ctx.developerId, mode: ctx.mode, reference: `tbatch_${randomHex(10)}`, currency, total: input.items.length, totalAmount: total, createdAt: now },
        input.items.map((item, index) => ({ payload: toPayload(item), amount: amounts[index].toString() })),
        now,
      );
      await enqueue(manager, stored.id);
      return stored;
    });
    return { batch, items: await this.repository.itemsOf(batch.id), transferStatuses: new Map() };
  }

  /** @throws batch_not_found (also another developer's or the other mode's batch) */
  async get(ctx: DeveloperContext, reference: string): Promise<TransferBatchView> {
    const batch = await this.repository.findByReference(ctx, reference);
    if (!batch) throw new DomainError('batch_not_found', 'No such batch.');
    const items = await this.repository.itemsOf(batch.id);
    const references = items.flatMap((item) => (item.transferReference ? [item.transferReference] : []));
    return { batch, items, transferStatuses: await this.transfersRepository.statusesOf(ctx, references) };
  }

  /** Processes a batch's open items, then completes it. Safe to run concurrently and again. */
  async process(batchId: string): Promise<void> {
    const batch = await this.repository.findById(batchId);
    if (!batch || batch.status === 'completed') return;
    const lane = async () => {
      for (let item = await this.claimNext(batchId); item; item = await this.claimNext(batchId)) await this.runItem(batch, item);
    };
    // Every lane ends before the job does: a failed job is retried, and must not race its own lanes.
    const failed = (await Promise.allSettled(Array.from({ length: ITEM_LANES }, lane))).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    await this.complete(batch);
  }

  /** Re-queues batches with work left that no live worker holds (its job was lost with a crashed worker). */
  async resumeStalled(): Promise<number> {
    const stalled = await this.repository.findStalledBatchIds(this.staleBefore(this.clock.now()));
    for (const id of stalled) await enqueue(this.repository.manager, id);
    return stalled.length;
  }

  /**
   * Every item against the rules of a single transfer that need no provider call per item (the
   * account itself is resolved when its transfer is made); returns the items' exact amounts.
   * @throws validation_error naming every bad item's fields
   */
  private async check(ctx: DeveloperContext, currency: Currency, items: NewTransfer[]): Promise<Amount[]> {
    const errors: FieldErrors = {};
    const fail = (index: number, field: string, message: string) => (errors[`items.${index}.${field}`] ??= []).push(message);
    const limits = amountLimits(this.config);
    const amounts = items.map((item, index) => {
      if (item.currency !== undefined && item.currency !== currency) fail(index, 'currency', `must be ${currency}, the batch's currency, or left out`);
      const checked = checkAmount(item.amount, currency, limits);
      if (checked.ok) return checked.amount;
      fail(index, 'amount', checked.message);
      return Amount.zero();
    });
    const bankItems = items.flatMap((item, index) => (item.source === 'bank' ? [{ index, item }] : []));
    const accountErrors = await this.recipients.precheckAccounts(ctx, currency, bankItems.map(({ item }) => item));
    bankItems.forEach(({ index }, n) => Object.entries(accountErrors[n]).forEach(([field, messages]) => messages.forEach((m) => fail(index, field, m))));
    const walletItems = items.flatMap((item, index) => (item.source === 'wallet' ? [{ index, code: item.recipientCode }] : []));
    const saved = await this.recipients.byCodes(ctx, walletItems.map((w) => w.code));
    for (const { index, code } of walletItems) {
      const recipient = saved.get(code);
      if (!recipient) fail(index, 'recipient', 'is not a recipient of this account (POST /transfers/recipients)');
      else if (recipient.currency !== currency) fail(index, 'recipient', `is paid in ${recipient.currency}, not ${currency}, the batch's currency`);
    }
    if (Object.keys(errors).length) throw new DomainError('validation_error', 'Some items are not valid; nothing was created.', errors);
    return amounts;
  }

  private claimNext(batchId: string): Promise<ClaimedTransferItem | null> {
    const now = this.clock.now();
    return this.repository.claimNextItem(batchId, now, this.staleBefore(now));
  }

  /** A claim taken before this is taken to be a crashed (or hung) worker's. */
  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - (PROVIDER_CALLS_PER_ITEM * this.config.provider.timeoutMs + MARGIN_MS));
  }

  private async runItem(batch: TransferBatchEntity, item: ClaimedTransferItem): Promise<void> {
    const ctx = { developerId: batch.developerId, mode: batch.mode };
    const key = itemKey(batch, item.position);
    let outcome: TransferItemOutcome;
    try {
      const { transfer } = await this.transfers.create(ctx, { ...item.payload, currency: batch.currency }, key);
      outcome = { transition: 'succeed', transferReference: transfer.reference, error: null };
    } catch (error) {
      if (!(error instanceof DomainError)) {
        // Unexpected (the database went away…): the claim stays, to be taken over and run again.
        this.logger.error(`transfer batch ${batch.reference} item ${item.position} failed unexpectedly`, error instanceof Error ? error.stack : String(error));
        throw error;
      }
      if (isUnanswered(error)) {
        // The provider may have the transfer. Once it exists here (reserved), the item is done:
        // the transfers capability settles it (its reconciliation scan asks, or sends it again).
        const made = await this.transfersRepository.findByIdempotencyKey(ctx, key);
        if (!made) {
          this.logger.warn(`transfer batch ${batch.reference} item ${item.position}: no answer from the provider (${error.code}); it will be resumed`);
          await this.repository.renewClaim(item, this.clock.now());
          return;
        }
        outcome = { transition: 'succeed', transferReference: made.reference, error: null };
      } else {
        outcome = { transition: 'fail', transferReference: null, error: { code: error.code, message: describeError(error) } };
      }
    }
    const written = await this.repository.writeOutcome(item, outcome, this.clock.now());
    if (!written) this.logger.warn(`transfer batch ${batch.reference} item ${item.position}: taken over by another worker; its result stands`);
  }

  /** The batch is done when no item is open: completed once, with `batch.completed`, in one transaction. */
  private async complete(batch: TransferBatchEntity): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      if (!(await this.repository.complete(manager, batch.id, this.clock.now()))) return;
      const completed = await this.repository.findBatch(manager, batch.id);
      const { items: _items, ...summary } = toTransferBatchResponse({ batch: completed, items: await this.repository.itemsOf(batch.id, manager), transferStatuses: new Map() });
      await this.events.emit(manager, { developerId: batch.developerId, mode: batch.mode }, 'batch.completed', summary);
    });
  }
}

/** The idempotency key of an item's transfer: fixed by the batch's internal id and the item's position. */
export function itemKey(batch: Pick<TransferBatchEntity, 'id'>, position: number): string {
  return `batch:${batch.id}:${position}`;
}

/** The provider did not answer (timeout, 5xx, unreachable): it may have acted, so the outcome is unknown. */
function isUnanswered(error: DomainError): boolean {
  return error.code === 'gateway_timeout' || (error.code === 'provider_error' && !(error instanceof ProviderRejectedError));
}

/** The error's message with its field errors, as the single request would have shown them. */
function describeError(error: DomainError): string {
  const fields = Object.entries(error.fieldErrors ?? {}).map(([field, messages]) => `${field} ${messages.join('; ')}`);
  return fields.length ? `${error.message} (${fields.join(', ')})` : error.message;
}

/** What an item stores: the transfer request without its currency (the batch's). */
function toPayload(item: NewTransfer): TransferBatchItemPayload {
  const reason = item.reason === undefined ? {} : { reason: item.reason };
  return item.source === 'wallet'
    ? { source: 'wallet', amount: item.amount, recipientCode: item.recipientCode, ...reason }
    : { source: 'bank', amount: item.amount, bankCode: item.bankCode, accountNumber: item.accountNumber, accountName: item.accountName, ...reason };
}

async function enqueue(manager: EntityManager, batchId: string): Promise<void> {
  await enqueueJob(manager, TRANSFER_BATCH_TASK, { name: 'batch_id', value: batchId }, { maxAttempts: 25 });
}
