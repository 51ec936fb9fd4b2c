import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

export type TransferBatchStatus = 'processing' | 'completed';

@Entity({ name: 'transfer_batches' })
export class TransferBatchEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`tbatch_…`); the id stays internal (it is part of each item's idempotency key). */
  @Column('text')
  reference: string;

  @Column('text')
  status: TransferBatchStatus;

  @Column('text')
  currency: Currency;

  @Column('int')
  total: number;

  @Column({ name: 'total_amount', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  totalAmount: Amount;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;
}

export type TransferBatchItemStatus = 'pending' | 'processing' | 'succeeded' | 'failed';

/**
 * What an item asks for, as validated when the batch was accepted (camelCase, without currency:
 * the batch's). Stored as given so every run of the item builds the very same transfer request,
 * whose fingerprint the transfer's idempotency key is checked against.
 */
export type TransferBatchItemPayload =
  | { source: 'bank'; amount: number; bankCode: string; accountNumber: string; accountName: string; reason?: string }
  | { source: 'wallet'; amount: number; recipientCode: string; reason?: string };

@Entity({ name: 'transfer_batch_items' })
export class TransferBatchItemEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'batch_id' })
  batchId: string;

  @Column('int')
  position: number;

  @Column('jsonb')
  payload: TransferBatchItemPayload;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  status: TransferBatchItemStatus;

  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  /** This claim's identity: a result is written only under the token that claimed the item. */
  @Column('uuid', { name: 'claim_token', nullable: true })
  claimToken: string | null;

  @Column('text', { name: 'transfer_reference', nullable: true })
  transferReference: string | null;

  @Column('jsonb', { nullable: true })
  error: { code: string; message: string } | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
