import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'developer_fee_overrides' })
export class DeveloperFeeOverrideEntity {
  @PrimaryColumn('uuid', { name: 'developer_id' })
  developerId: string;

  @PrimaryColumn('text')
  currency: Currency;

  @Column('numeric', { precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
