import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, fromStatesOf, statusLiterals, targetOf } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { type BatchItemType, PaymentBatchEntity, PaymentBatchItemEntity } from './payment-batch.entities';
import { BATCH_ITEM_TRANSITIONS, BATCH_TRANSITIONS, type BatchItemTransition } from './payment-batch-status';

/** A claimed item as processing sees it; `claimToken` identifies this claim (see the claim-token migration). */
export type ClaimedItem = Pick<PaymentBatchItemEntity, 'id' | 'position' | 'type' | 'payload'> & { claimToken: string };

/** What processing an item came to: its move, and what it records. */
export type ItemOutcome = Pick<PaymentBatchItemEntity, 'paymentReference' | 'paymentStatus' | 'error'> & { transition: Exclude<BatchItemTransition, 'claim'> };

/** Items still to be done: new, or claimed by a worker (the statuses a claim starts from). */
const OPEN_ITEMS = statusLiterals(fromStatesOf(BATCH_ITEM_TRANSITIONS, 'claim'));
/** An item some worker holds. */
const CLAIMED = statusLiterals([targetOf(BATCH_ITEM_TRANSITIONS, 'claim')]);
/** A batch not completed yet. */
const UNFINISHED = statusLiterals(fromStatesOf(BATCH_TRANSITIONS, 'complete'));

// Literal statuses (fixed at load) so the partial index payment_batch_items_open applies. An
// unclaimed item has no claimed_at; a claimed one is taken over once its claim is stale.
const CLAIM_NEXT_SQL = `UPDATE payment_batch_items SET status = ${CLAIMED}, claimed_at = $2, claim_token = gen_random_uuid(), updated_at = $2
  WHERE id = (SELECT id FROM payment_batch_items
               WHERE batch_id = $1 AND status IN (${OPEN_ITEMS}) AND (claimed_at IS NULL OR claimed_at < $3)
               ORDER BY position LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING id, position, type, payload, claim_token AS "claimToken"`;

/** Batches and their items, always read through the batch's tenant except by the worker, which knows a batch id. */
/** A new batch's items, `pending`, at the positions of the arrays (0-based). */
const INSERT_ITEMS_SQL = `INSERT INTO payment_batch_items (batch_id, position, type, payload, status, updated_at)
  SELECT $1, item.ordinality - 1, item.type, item.payload::jsonb, 'pending', $2
    FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS item (type, payload, ordinality)`;

@Injectable()
export class PaymentBatchesRepository {
  constructor(
    @InjectRepository(PaymentBatchEntity) private readonly batches: Repository<PaymentBatchEntity>,
    @InjectRepository(PaymentBatchItemEntity) private readonly items: Repository<PaymentBatchItemEntity>,
  ) {}

  get manager(): EntityManager {
    return this.batches.manager;
  }

  findById(id: string): Promise<PaymentBatchEntity | null> {
    return this.batches.findOneBy({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<PaymentBatchEntity | null> {
    return this.batches.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  itemsOf(batchId: string, manager: EntityManager = this.manager): Promise<PaymentBatchItemEntity[]> {
    return manager.getRepository(PaymentBatchItemEntity).find({ where: { batchId }, order: { position: 'ASC' } });
  }

  /** Stores a new batch, `processing`, with its items `pending` in the order given. */
  async insert(
    manager: EntityManager,
    batch: Omit<QueryDeepPartialEntity<PaymentBatchEntity>, 'status'>,
    items: Array<{ type: BatchItemType; payload: Record<string, unknown> }>,
    now: Date,
  ): Promise<PaymentBatchEntity> {
    const repository = manager.getRepository(PaymentBatchEntity);
    const saved = await repository.save(repository.create({ ...(batch as Partial<PaymentBatchEntity>), status: 'processing' }));
    // One statement over two arrays: building a 1,000-row INSERT through the query builder held
    // the event loop for ~20 ms; this costs one JSON.stringify per item.
    await manager.query(INSERT_ITEMS_SQL, [saved.id, now, items.map((item) => item.type), items.map((item) => JSON.stringify(item.payload))]);
    return saved;
  }

  /**
   * Unfinished batches with an open item that no live worker holds: claimed before `staleBefore`,
   * or never claimed and stored before it (its job was lost).
   */
  async findStalledBatchIds(staleBefore: Date): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.batches.query(
      `SELECT DISTINCT b.id FROM payment_batches b JOIN payment_batch_items i ON i.batch_id = b.id
        WHERE b.status IN (${UNFINISHED}) AND i.status IN (${OPEN_ITEMS}) AND COALESCE(i.claimed_at, i.updated_at) < $1`,
      [staleBefore],
    );
    return rows.map((row) => row.id);
  }

  /** Claims the batch's first open item — new, or claimed before `staleBefore` — for this worker (SKIP LOCKED). */
  async claimNextItem(batchId: string, now: Date, staleBefore: Date): Promise<ClaimedItem | null> {
    const [rows] = (await this.items.query(CLAIM_NEXT_SQL, [batchId, now, staleBefore])) as [ClaimedItem[], number];
    return rows[0] ?? null;
  }

  /** Records the item's outcome, only while `item`'s claim is still the one holding it; false when another worker took it over. */
  async writeOutcome(item: ClaimedItem, outcome: ItemOutcome, now: Date): Promise<boolean> {
    const [, written] = (await this.items.query(
      `UPDATE payment_batch_items SET status = $3, payment_reference = $4, payment_status = $5, error = $6::jsonb, updated_at = $7
        WHERE id = $1 AND claim_token = $2 AND status = ANY ($8::text[])`,
      [
        item.id,
        item.claimToken,
        targetOf(BATCH_ITEM_TRANSITIONS, outcome.transition),
        outcome.paymentReference,
        outcome.paymentStatus,
        outcome.error && JSON.stringify(outcome.error),
        now,
        fromStatesOf(BATCH_ITEM_TRANSITIONS, outcome.transition),
      ],
    )) as [unknown, number];
    return written === 1;
  }

  /** Restarts this claim's timeout, unless another worker holds the item by now. */
  async renewClaim(item: ClaimedItem, now: Date): Promise<void> {
    await this.items.query(`UPDATE payment_batch_items SET claimed_at = $3, updated_at = $3 WHERE id = $1 AND claim_token = $2 AND status = $4`, [
      item.id,
      item.claimToken,
      now,
      targetOf(BATCH_ITEM_TRANSITIONS, 'claim'),
    ]);
  }

  /** Completes the batch if no item is open any more; false when it is not done, or was completed already. */
  async complete(manager: EntityManager, batchId: string, now: Date): Promise<boolean> {
    const [rows] = (await manager.query(
      `UPDATE payment_batches SET status = $3, completed_at = $2
        WHERE id = $1 AND status IN (${UNFINISHED})
          AND NOT EXISTS (SELECT 1 FROM payment_batch_items WHERE batch_id = $1 AND status IN (${OPEN_ITEMS}))
        RETURNING id`,
      [batchId, now, targetOf(BATCH_TRANSITIONS, 'complete')],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  findBatch(manager: EntityManager, id: string): Promise<PaymentBatchEntity> {
    return manager.getRepository(PaymentBatchEntity).findOneByOrFail({ id });
  }
}
