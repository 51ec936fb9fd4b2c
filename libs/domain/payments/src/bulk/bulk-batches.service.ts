import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { FieldErrors } from '@gateway/contracts';
import { EventsService } from '@gateway/domain/events';
import { ProviderRejectedError } from '@gateway/provider';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, enqueueJob, inTransaction } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { PaymentChargesService } from '../payment-charges.service';
import { type InitializePayment, PaymentsService } from '../payments.service';
import { type BatchItemType, PaymentBatchEntity, PaymentBatchItemEntity } from './payment-batch.entities';
import { toPaymentBatchResponse } from './payment-batch.mapper';

/** The job-queue task that processes a batch (registered by the scheduler's worker). */
export const PAYMENT_BATCH_TASK = 'payment_batch';

/** An item as the request gave it (snake_case wire payload), already shape-checked by the caller. */
export interface BulkItem {
  type: BatchItemType;
  payload: Record<string, unknown>;
}

/** A claimed item as processing sees it; `claimToken` identifies this claim (see the claim-token migration). */
type ClaimedItem = Pick<PaymentBatchItemEntity, 'id' | 'position' | 'type' | 'payload'> & { claimToken: string };

type ItemOutcome = Pick<PaymentBatchItemEntity, 'status' | 'paymentReference' | 'paymentStatus' | 'error'>;

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
 */
@Injectable()
export class BulkBatchesService {
  private readonly logger = new Logger(BulkBatchesService.name);

  constructor(
    @InjectRepository(PaymentBatchEntity) private readonly batches: Repository<PaymentBatchEntity>,
    @InjectRepository(PaymentBatchItemEntity) private readonly items: Repository<PaymentBatchItemEntity>,
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
      const batch = await manager.getRepository(PaymentBatchEntity).save(
        manager.getRepository(PaymentBatchEntity).create({
          developerId: ctx.developerId,
          mode: ctx.mode,
          reference: `BATCH_${randomBytes(10).toString('hex')}`,
          status: 'processing',
          total: items.length,
          createdAt: now,
          completedAt: null,
        }),
      );
      await manager
        .createQueryBuilder()
        .insert()
        .into(PaymentBatchItemEntity)
        .values(items.map((item, position) => ({ batchId: batch.id, position, type: item.type, payload: item.payload as never, status: 'pending' as const, updatedAt: now })))
        .execute();
      await enqueue(manager, batch.id);
      return batch;
    });
  }

  /** @throws batch_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<{ batch: PaymentBatchEntity; items: PaymentBatchItemEntity[] }> {
    const batch = await this.batches.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
    if (!batch) throw new DomainError('batch_not_found', 'No such batch.');
    return { batch, items: await this.items.find({ where: { batchId: batch.id }, order: { position: 'ASC' } }) };
  }

  /** Processes a batch's open items one by one, then completes it. Safe to run concurrently and again. */
  async process(batchId: string): Promise<void> {
    const batch = await this.batches.findOneBy({ id: batchId });
    if (!batch || batch.status === 'completed') return;
    const ctx = { developerId: batch.developerId, mode: batch.mode };
    for (let item = await this.claimNext(batchId); item; item = await this.claimNext(batchId)) {
      await this.runItem(ctx, batch, item);
    }
    await this.complete(batch);
  }

  /** Re-queues batches with work left that no live worker holds (its job was lost with a crashed worker). */
  async resumeStalled(): Promise<number> {
    const stale = new Date(this.clock.now().getTime() - this.config.payments.bulkClaimTimeoutSeconds * 1000);
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT DISTINCT b.id FROM payment_batches b JOIN payment_batch_items i ON i.batch_id = b.id
        WHERE b.status = 'processing' AND (i.status = 'processing' AND i.claimed_at < $1 OR i.status = 'pending' AND i.updated_at < $1)`,
      [stale],
    );
    for (const row of rows) await enqueue(this.dataSource.manager, row.id);
    return rows.length;
  }

  private async claimNext(batchId: string): Promise<ClaimedItem | null> {
    const now = this.clock.now();
    const stale = new Date(now.getTime() - this.config.payments.bulkClaimTimeoutSeconds * 1000);
    const [rows] = (await this.dataSource.query(
      `UPDATE payment_batch_items SET status = 'processing', claimed_at = $2, claim_token = gen_random_uuid(), updated_at = $2
        WHERE id = (SELECT id FROM payment_batch_items
                     WHERE batch_id = $1 AND (status = 'pending' OR status = 'processing' AND claimed_at < $3)
                     ORDER BY position LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, position, type, payload, claim_token AS "claimToken"`,
      [batchId, now, stale],
    )) as [ClaimedItem[], number];
    return rows[0] ?? null;
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
              status: 'failed',
              paymentReference: reference,
              paymentStatus: status,
              error: { code: 'authorization_declined', message: `The card issuer declined the charge${gatewayResponse ? `: ${gatewayResponse}` : ''}.` },
            }
          : { status: 'succeeded', paymentReference: reference, paymentStatus: status, error: null };
    } catch (error) {
      if (!(error instanceof DomainError)) {
        // Unexpected (the database went away…): leave the claim to be taken over and retried.
        this.logger.error(`batch ${batch.reference} item ${item.position} failed unexpectedly`, error instanceof Error ? error.stack : String(error));
        throw error;
      }
      if (isUnanswered(error)) {
        // The provider may have acted: keep the claim (renewed), so the item is re-run once it is stale.
        this.logger.warn(`batch ${batch.reference} item ${item.position}: no answer from the provider (${error.code}); it will be resumed`);
        await this.renewClaim(item);
        return;
      }
      outcome = { status: 'failed', paymentReference: null, paymentStatus: null, error: { code: error.code, message: error.message } };
    }
    const [, written] = (await this.dataSource.query(
      `UPDATE payment_batch_items SET status = $3, payment_reference = $4, payment_status = $5, error = $6::jsonb, updated_at = $7
        WHERE id = $1 AND claim_token = $2 AND status = 'processing'`,
      [item.id, item.claimToken, outcome.status, outcome.paymentReference, outcome.paymentStatus, outcome.error && JSON.stringify(outcome.error), this.clock.now()],
    )) as [unknown, number];
    if (written !== 1) this.logger.warn(`batch ${batch.reference} item ${item.position}: taken over by another worker; its result stands`);
  }

  /** Restarts this claim's timeout, unless another worker holds the item by now. */
  private async renewClaim(item: ClaimedItem): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.query(`UPDATE payment_batch_items SET claimed_at = $3, updated_at = $3 WHERE id = $1 AND claim_token = $2 AND status = 'processing'`, [
      item.id,
      item.claimToken,
      now,
    ]);
  }

  /** The batch is done when no item is open: completed once, with `batch.completed`, in one transaction. */
  private async complete(batch: PaymentBatchEntity): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const now = this.clock.now();
      const [rows] = (await manager.query(
        `UPDATE payment_batches SET status = 'completed', completed_at = $2
          WHERE id = $1 AND status = 'processing'
            AND NOT EXISTS (SELECT 1 FROM payment_batch_items WHERE batch_id = $1 AND status IN ('pending', 'processing'))
          RETURNING id`,
        [batch.id, now],
      )) as [unknown[], number];
      if (!rows.length) return;
      const completed = await manager.getRepository(PaymentBatchEntity).findOneByOrFail({ id: batch.id });
      const items = await manager.getRepository(PaymentBatchItemEntity).find({ where: { batchId: batch.id }, order: { position: 'ASC' } });
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
