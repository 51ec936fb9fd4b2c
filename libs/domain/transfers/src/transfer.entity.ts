import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode, TransferSource, TransferStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'transfers' })
export class TransferEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`trf_…`), and the provider's reference for this payout: a retry never pays twice. */
  @Column('text')
  reference: string;

  @Column('text')
  source: TransferSource;

  @Column('uuid', { name: 'recipient_id' })
  recipientId: string;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('text')
  status: TransferStatus;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: string | null;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey: string | null;

  /** What the key was first used for (requestFingerprint of the validated request). */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash: string | null;

  /** Null until the provider answered for the transfer; such a transfer is asked about (and sent) again. */
  @Column('text', { name: 'provider_transfer_code', nullable: true })
  providerTransferCode: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
