import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

export type BatchStatus = 'processing' | 'completed';

@Entity({ name: 'payment_batches' })
export class PaymentBatchEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`BATCH_…`). */
  @Column('text')
  reference: string;

  @Column('text')
  status: BatchStatus;

  @Column('int')
  total: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;
}

export type BatchItemType = 'initialize' | 'charge';
export type BatchItemStatus = 'pending' | 'processing' | 'succeeded' | 'failed';

@Entity({ name: 'payment_batch_items' })
export class PaymentBatchItemEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'batch_id' })
  batchId: string;

  @Column('int')
  position: number;

  @Column('text')
  type: BatchItemType;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column('text')
  status: BatchItemStatus;

  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  /** This claim's identity: a result is written only under the token that claimed the item. */
  @Column('uuid', { name: 'claim_token', nullable: true })
  claimToken: string | null;

  @Column('text', { name: 'payment_reference', nullable: true })
  paymentReference: string | null;

  @Column('text', { name: 'payment_status', nullable: true })
  paymentStatus: string | null;

  @Column('jsonb', { nullable: true })
  error: { code: string; message: string } | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
