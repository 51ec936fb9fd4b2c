import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FieldErrors } from '@gateway/contracts';
import { EventsService } from '@gateway/domain/webhooks';
import { type InitializePayment, PaymentChargesService, PaymentsService } from '@gateway/domain/payments';
import { ProviderRejectedError } from '@gateway/provider';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, enqueueJob, inTransaction, randomHex } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { BatchItemType, PaymentBatchEntity, PaymentBatchItemEntity } from './payment-batch.entities';
import { toPaymentBatchResponse } from './payment-batch.mapper';
import { type ClaimedItem, type ItemOutcome, PaymentBatchesRepository } from './payment-batches.repository';

/** The job-queue task that processes a batch (registered by the scheduler's worker). */
export const PAYMENT_BATCH_TASK = 'payment_batch';

/** An item as the request gave it (snake_case wire payload), already shape-checked by the caller. */
export interface BulkItem {
  type: BatchItemType;
  payload: Record<string, unknown>;
}

/**
 * Bulk initializes and charges. A batch is validated as a whole (one bad item refuses it, naming
 * the item), stored with its items, and queued on the PostgreSQL job queue in the same transaction.
 * Processing claims one item at a time (SKIP LOCKED, with a claim token; a claim older than the
 * timeout is taken over), and runs it under an idempotency key of its own — batch reference +
 * position — so a crash, a retried job or a second worker resumes the item's payment instead of
 * making another. An item's result is written only while its claim is still the writer's, so a
 * worker that was taken over cannot overwrite the newer result. A provider that did not answer
 * (timeout, 5xx) may have charged the card: such an item is not failed but left claimed, and
 * re-run once the claim is stale — safe, because the provider keys the charge by our reference.
 *
 * A scheduled initialize (`charge_at`) is validated against the batch's creation time, also when
 * the item is processed: an item reached after its `charge_at` becomes a scheduled payment that is
 * already due, and the next scheduler scan charges it.
 *
 * Tables `payment_batches` and `payment_batch_items`; each item's payment is made by the payments
 * module's services, under the item's idempotency key.
 */
@Injectable()
export class BulkBatchesService {
  private readonly logger = new Logger(BulkBatchesService.name);

  constructor(
    private readonly repository: PaymentBatchesRepository,
    private readonly payments: PaymentsService,
    private readonly charges: PaymentChargesService,
    private readonly events: EventsService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** @throws validation_error (errors keyed `items.<index>.<field>`), and the payment codes of the first bad item */
  async create(ctx: DeveloperContext, items: BulkItem[]): Promise<PaymentBatchEntity> {
    if (items.length === 0 || items.length > this.config.payments.bulkMaxItems) {
      throw new DomainError('validation_error', `A batch holds 1 to ${this.config.payments.bulkMaxItems} items.`, { items: [`must hold 1 to ${this.config.payments.bulkMaxItems} items`] });
    }
    const errors: FieldErrors = {};
    for (const [index, item] of items.entries()) {
      try {
        await this.payments.checkNewPayment(ctx, toPaymentInput(item), item.type === 'charge' ? 'charge' : 'checkout');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const fields = error.fieldErrors ? Object.entries(error.fieldErrors) : [['', [error.message]] as const];
        for (const [field, messages] of fields) errors[`items.${index}${field ? `.${field}` : ''}`] = [...messages].map((m) => (field ? m : `${error.code}: ${m}`));
      }
    }
    if (Object.keys(errors).length) throw new DomainError('validation_error', 'Some items are not valid; nothing was created.', errors);

    return inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const batch = await this.repository.insert(
        manager,
        { developerId: ctx.developerId, mode: ctx.mode, reference: `BATCH_${randomHex(10)}`, total: items.length, createdAt: now, completedAt: null },
        items,
        now,
      );
      await enqueue(manager, batch.id);
      return batch;
    });
  }

  /** @throws batch_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<{ batch: PaymentBatchEntity; items: PaymentBatchItemEntity[] }> {
    const batch = await this.repository.findByReference(ctx, reference);
    if (!batch) throw new DomainError('batch_not_found', 'No such batch.');
    return { batch, items: await this.repository.itemsOf(batch.id) };
  }

  /** Processes a batch's open items one by one, then completes it. Safe to run concurrently and again. */
  async process(batchId: string): Promise<void> {
    const batch = await this.repository.findById(batchId);
    if (!batch || batch.status === 'completed') return;
    const ctx = { developerId: batch.developerId, mode: batch.mode };
    for (let item = await this.claimNext(batchId); item; item = await this.claimNext(batchId)) {
      await this.runItem(ctx, batch, item);
    }
    await this.complete(batch);
  }

  /** Re-queues batches with work left that no live worker holds (its job was lost with a crashed worker). */
  async resumeStalled(): Promise<number> {
    const stalled = await this.repository.findStalledBatchIds(this.staleBefore(this.clock.now()));
    for (const id of stalled) await enqueue(this.repository.manager, id);
    return stalled.length;
  }

  private claimNext(batchId: string): Promise<ClaimedItem | null> {
    const now = this.clock.now();
    return this.repository.claimNextItem(batchId, now, this.staleBefore(now));
  }

  /** A claim taken before this is taken to be a crashed (or too slow) worker's. */
  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - this.config.payments.bulkClaimTimeoutSeconds * 1000);
  }

  private async runItem(ctx: DeveloperContext, batch: PaymentBatchEntity, item: ClaimedItem): Promise<void> {
    const key = `batch:${batch.reference}:${item.position}`;
    let outcome: ItemOutcome;
    try {
      const input = toPaymentInput(item);
      const view =
        item.type === 'charge'
          ? await this.charges.chargeNow(ctx, { ...input, authorizationCode: input.authorizationCode as string }, key, 'batch_item')
          : await this.payments.initialize(ctx, input, key, 'batch_item', batch.createdAt);
      const { reference, status, gatewayResponse } = view.payment;
      outcome =
        status === 'failed'
          ? {
              transition: 'fail',
              paymentReference: reference,
              paymentStatus: status,
              error: { code: 'authorization_declined', message: `The card issuer declined the charge${gatewayResponse ? `: ${gatewayResponse}` : ''}.` },
            }
          : { transition: 'succeed', paymentReference: reference, paymentStatus: status, error: null };
    } catch (error) {
      if (!(error instanceof DomainError)) {
        // Unexpected (the database went away…): leave the claim to be taken over and retried.
        this.logger.error(`batch ${batch.reference} item ${item.position} failed unexpectedly`, error instanceof Error ? error.stack : String(error));
        throw error;
      }
      if (isUnanswered(error)) {
        // The provider may have acted: keep the claim (renewed), so the item is re-run once it is stale.
        this.logger.warn(`batch ${batch.reference} item ${item.position}: no answer from the provider (${error.code}); it will be resumed`);
        await this.repository.renewClaim(item, this.clock.now());
        return;
      }
      outcome = { transition: 'fail', paymentReference: null, paymentStatus: null, error: { code: error.code, message: error.message } };
    }
    const written = await this.repository.writeOutcome(item, outcome, this.clock.now());
    if (!written) this.logger.warn(`batch ${batch.reference} item ${item.position}: taken over by another worker; its result stands`);
  }

  /** The batch is done when no item is open: completed once, with `batch.completed`, in one transaction. */
  private async complete(batch: PaymentBatchEntity): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      if (!(await this.repository.complete(manager, batch.id, this.clock.now()))) return;
      const completed = await this.repository.findBatch(manager, batch.id);
      const items = await this.repository.itemsOf(batch.id, manager);
      const { items: _items, ...summary } = toPaymentBatchResponse(completed, items);
      await this.events.emit(manager, { developerId: batch.developerId, mode: batch.mode }, 'batch.completed', summary);
    });
  }
}

/** The provider did not answer (timeout, 5xx, unreachable): it may have acted, so the outcome is unknown. */
function isUnanswered(error: DomainError): boolean {
  return error.code === 'gateway_timeout' || (error.code === 'provider_error' && !(error instanceof ProviderRejectedError));
}

async function enqueue(manager: EntityManager, batchId: string): Promise<void> {
  await enqueueJob(manager, PAYMENT_BATCH_TASK, { name: 'batch_id', value: batchId }, { maxAttempts: 25 });
}

/** A stored item's wire payload as the payments services take it. */
function toPaymentInput(item: Pick<PaymentBatchItemEntity, 'payload'> | BulkItem): InitializePayment {
  const p = item.payload as Record<string, never>;
  return {
    amount: p.amount,
    email: p.email,
    currency: p.currency,
    callbackUrl: p.callback_url,
    metadata: p.metadata,
    authorizationCode: p.authorization_code,
    chargeAt: p.charge_at,
    splits: p.splits,
  };
}
