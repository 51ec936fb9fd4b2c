import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode, RefundStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'refunds' })
export class RefundEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`RFD_…`); also the provider's idempotency key for this refund. */
  @Column('text')
  reference: string;

  @Column('uuid', { name: 'payment_id' })
  paymentId: string;

  @Column('text', { name: 'payment_reference' })
  paymentReference: string;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('text')
  status: RefundStatus;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey: string | null;

  /** What the key was first used for (payment, requested amount, reason; its requestFingerprint); null before it was kept. */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash: string | null;

  /** Null until the provider accepted the refund: such a refund is submitted again (same reference) until it does. */
  @Column('text', { name: 'provider_refund_id', nullable: true })
  providerRefundId: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'processed_at', nullable: true })
  processedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
