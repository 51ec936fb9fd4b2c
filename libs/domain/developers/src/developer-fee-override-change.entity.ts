import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

/** One change of a developer's platform fee, kept for ever (the override row holds only the latest). */
@Entity({ name: 'developer_fee_override_changes' })
export class DeveloperFeeOverrideChangeEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Insertion order (changed_at comes from the clock and may tie). */
  @Column({ type: 'bigint', insert: false, update: false, select: false })
  seq: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  currency: Currency;

  /** Null: back to the default platform fee. */
  @Column('numeric', { precision: 20, scale: 2, nullable: true, transformer: amountTransformer })
  amount: Amount | null;

  @Column('numeric', { name: 'previous_amount', precision: 20, scale: 2, nullable: true, transformer: amountTransformer })
  previousAmount: Amount | null;

  /** The staff e-mail (portal) or the operator's `--by` label (CLI). */
  @Column('text', { name: 'changed_by' })
  changedBy: string;

  @Column('timestamptz', { name: 'changed_at' })
  changedAt: Date;
}
