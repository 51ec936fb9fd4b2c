import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DisputeStatus, Mode } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

/** The evidence as stored (camelCase here, snake_case on the wire through the mapper). */
export interface DisputeEvidence {
  customerEmail: string;
  customerName: string;
  customerPhone: string;
  serviceDetails: string;
  serviceDate: string | null;
  deliveryDate: string | null;
  deliveryAddress: string | null;
  explanation: string | null;
  fileUrls: string[];
}

@Entity({ name: 'disputes' })
export class DisputeEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`DSP_…`). */
  @Column('text')
  reference: string;

  @Column('uuid', { name: 'payment_id' })
  paymentId: string;

  @Column('text', { name: 'payment_reference' })
  paymentReference: string;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  /** What the wallet reserved for it: `amount`, or the available balance when that was less. */
  @Column({ type: 'numeric', precision: 20, scale: 2, name: 'held_amount', transformer: amountTransformer })
  heldAmount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('text')
  status: DisputeStatus;

  @Column('jsonb', { nullable: true })
  evidence: DisputeEvidence | null;

  @Column('timestamptz', { name: 'submitted_at', nullable: true })
  submittedAt: Date | null;

  @Column('timestamptz', { name: 'evidence_due_at' })
  evidenceDueAt: Date;

  /** Never leaves the gateway: responses and events carry our reference only. */
  @Column('text', { name: 'provider_dispute_id' })
  providerDisputeId: string;

  @Column('timestamptz', { name: 'resolved_at', nullable: true })
  resolvedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
