import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

@Entity({ name: 'subaccounts' })
export class SubaccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public code (`ACCT_…`), what a payment's `splits[].subaccount` names. */
  @Column('text')
  code: string;

  @Column('text', { name: 'business_name' })
  businessName: string;

  @Column('text', { name: 'bank_code' })
  bankCode: string;

  /** Full NUBAN, needed to pay the share out; only its last 4 digits ever reach the wire. */
  @Column('text', { name: 'account_number' })
  accountNumber: string;

  @Column('text', { name: 'account_name', nullable: true })
  accountName: string | null;

  @Column('text', { nullable: true })
  description: string | null;

  /** An inactive sub-account cannot receive new splits. */
  @Column('boolean', { default: true })
  active: boolean;

  @Column('jsonb', { default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
