import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode, PlanInterval } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'subscription_plans' })
export class PlanEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** `PLN_…`: the plan's id on the wire. */
  @Column('text', { name: 'public_id' })
  publicId: string;

  @Column('text')
  name: string;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text')
  interval: PlanInterval;

  @Column('integer', { name: 'trial_period_days' })
  trialPeriodDays: number;

  @Column('boolean')
  active: boolean;

  @Column('timestamptz', { name: 'archived_at', nullable: true })
  archivedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
