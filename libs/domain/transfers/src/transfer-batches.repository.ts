import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, fromStatesOf, statusLiterals, targetOf } from '@gateway/platform';
import type { EntityManager, Repository } from 'typeorm';
import { TransferBatchEntity, TransferBatchItemEntity, type TransferBatchItemPayload } from './transfer-batch.entities';
import { TRANSFER_BATCH_ITEM_TRANSITIONS, TRANSFER_BATCH_TRANSITIONS, type TransferBatchItemTransition } from './transfer-batch-status';

/** A claimed item as processing sees it; `claimToken` identifies this claim. */
export type ClaimedTransferItem = Pick<TransferBatchItemEntity, 'id' | 'position' | 'payload'> & { claimToken: string };

/** What processing an item came to: its move, and what it records. */
export type TransferItemOutcome = Pick<TransferBatchItemEntity, 'transferReference' | 'error'> & { transition: Exclude<TransferBatchItemTransition, 'claim'> };

/** A new batch as stored (status `processing`, set here). */
export type NewTransferBatchRow = Omit<TransferBatchEntity, 'id' | 'status' | 'completedAt'>;

/** Items still to be done: new, or claimed by a worker (the statuses a claim starts from). */
const OPEN_ITEMS = statusLiterals(fromStatesOf(TRANSFER_BATCH_ITEM_TRANSITIONS, 'claim'));
/** An item some worker holds. */
const CLAIMED = statusLiterals([targetOf(TRANSFER_BATCH_ITEM_TRANSITIONS, 'claim')]);
/** A batch not completed yet. */
const UNFINISHED = statusLiterals(fromStatesOf(TRANSFER_BATCH_TRANSITIONS, 'complete'));

// Literal statuses (fixed at load) so the partial index transfer_batch_items_open applies. An
// unclaimed item has no claimed_at; a claimed one is taken over once its claim is stale.
const CLAIM_NEXT_SQL = `UPDATE transfer_batch_items SET status = ${CLAIMED}, claimed_at = $2, claim_token = gen_random_uuid(), updated_at = $2
  WHERE id = (SELECT id FROM transfer_batch_items
               WHERE batch_id = $1 AND status IN (${OPEN_ITEMS}) AND (claimed_at IS NULL OR claimed_at < $3)
               ORDER BY position LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING id, position, payload, claim_token AS "claimToken"`;

/** A new batch's items, `pending`, at the positions of the arrays (0-based): one statement for 1,000 rows. */
const INSERT_ITEMS_SQL = `INSERT INTO transfer_batch_items (batch_id, position, payload, amount, status, updated_at)
  SELECT $1, item.ordinality - 1, item.payload::jsonb, item.amount, 'pending', $2
    FROM unnest($3::text[], $4::numeric[]) WITH ORDINALITY AS item (payload, amount, ordinality)`;

/** Transfer batches and their items: read through the batch's tenant, except by the worker, which knows a batch id. */
@Injectable()
export class TransferBatchesRepository {
  constructor(@InjectRepository(TransferBatchEntity) private readonly batches: Repository<TransferBatchEntity>) {}

  get manager(): EntityManager {
    return this.batches.manager;
  }

  findById(id: string): Promise<TransferBatchEntity | null> {
    return this.batches.findOneBy({ id });
  }

  findByReference(ctx: DeveloperContext, reference: string): Promise<TransferBatchEntity | null> {
    return this.batches.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode });
  }

  itemsOf(batchId: string, manager: EntityManager = this.manager): Promise<TransferBatchItemEntity[]> {
    return manager.getRepository(TransferBatchItemEntity).find({ where: { batchId }, order: { position: 'ASC' } });
  }

  /** Stores a new batch, `processing`, with its items `pending` in the order given. */
  async insert(manager: EntityManager, batch: NewTransferBatchRow, items: Array<{ payload: TransferBatchItemPayload; amount: string }>, now: Date): Promise<TransferBatchEntity> {
    const repository = manager.getRepository(TransferBatchEntity);
    const saved = await repository.save(repository.create({ ...batch, status: 'processing', completedAt: null }));
    await manager.query(INSERT_ITEMS_SQL, [saved.id, now, items.map((item) => JSON.stringify(item.payload)), items.map((item) => item.amount)]);
    return saved;
  }

  /**
   * Unfinished batches with open items that no live worker is working on: none of their items was
   * claimed or finished since `staleBefore` (a worker touches an item at least that often). Judged
   * per batch, not per item, so the untouched tail of a batch that a worker is still going through
   * does not get it queued again (and run twice over) while that worker is alive.
   */
  async findStalledBatchIds(staleBefore: Date): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.batches.query(
      `SELECT b.id FROM transfer_batches b JOIN transfer_batch_items i ON i.batch_id = b.id
        WHERE b.status IN (${UNFINISHED})
        GROUP BY b.id
       HAVING bool_or(i.status IN (${OPEN_ITEMS})) AND max(i.updated_at) < $1`,
      [staleBefore],
    );
    return rows.map((row) => row.id);
  }

  /** Claims the batch's first open item — new, or claimed before `staleBefore` — for this worker (SKIP LOCKED). */
  async claimNextItem(batchId: string, now: Date, staleBefore: Date): Promise<ClaimedTransferItem | null> {
    const [rows] = (await this.batches.query(CLAIM_NEXT_SQL, [batchId, now, staleBefore])) as [ClaimedTransferItem[], number];
    return rows[0] ?? null;
  }

  /** Records the item's outcome, only while `item`'s claim is still the one holding it; false when another worker took it over. */
  async writeOutcome(item: ClaimedTransferItem, outcome: TransferItemOutcome, now: Date): Promise<boolean> {
    const [, written] = (await this.batches.query(
      `UPDATE transfer_batch_items SET status = $3, transfer_reference = $4, error = $5::jsonb, updated_at = $6
        WHERE id = $1 AND claim_token = $2 AND status = ANY ($7::text[])`,
      [
        item.id,
        item.claimToken,
        targetOf(TRANSFER_BATCH_ITEM_TRANSITIONS, outcome.transition),
        outcome.transferReference,
        outcome.error && JSON.stringify(outcome.error),
        now,
        fromStatesOf(TRANSFER_BATCH_ITEM_TRANSITIONS, outcome.transition),
      ],
    )) as [unknown, number];
    return written === 1;
  }

  /** Restarts this claim's timeout, unless another worker holds the item by now. */
  async renewClaim(item: ClaimedTransferItem, now: Date): Promise<void> {
    await this.batches.query(`UPDATE transfer_batch_items SET claimed_at = $3, updated_at = $3 WHERE id = $1 AND claim_token = $2 AND status = $4`, [
      item.id,
      item.claimToken,
      now,
      targetOf(TRANSFER_BATCH_ITEM_TRANSITIONS, 'claim'),
    ]);
  }

  /** Completes the batch if no item is open any more; false when it is not done, or was completed already. */
  async complete(manager: EntityManager, batchId: string, now: Date): Promise<boolean> {
    const [rows] = (await manager.query(
      `UPDATE transfer_batches SET status = $3, completed_at = $2
        WHERE id = $1 AND status IN (${UNFINISHED})
          AND NOT EXISTS (SELECT 1 FROM transfer_batch_items WHERE batch_id = $1 AND status IN (${OPEN_ITEMS}))
        RETURNING id`,
      [batchId, now, targetOf(TRANSFER_BATCH_TRANSITIONS, 'complete')],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  findBatch(manager: EntityManager, id: string): Promise<TransferBatchEntity> {
    return manager.getRepository(TransferBatchEntity).findOneByOrFail({ id });
  }
}
