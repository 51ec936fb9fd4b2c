import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type SettlementFrequency = 'daily' | 'weekly' | 'manual';

@Entity({ name: 'developers' })
export class DeveloperEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  email: string;

  @Column('text')
  name: string;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  @Column('timestamptz', { name: 'identity_verified_at', nullable: true })
  identityVerifiedAt: Date | null;

  @Column('text', { name: 'settlement_bank_code', nullable: true })
  settlementBankCode: string | null;

  @Column('text', { name: 'settlement_account_number', nullable: true })
  settlementAccountNumber: string | null;

  @Column('text', { name: 'settlement_account_name', nullable: true })
  settlementAccountName: string | null;

  /** Set while the account is suspended: its keys and its members' portal account routes are refused. */
  @Column('timestamptz', { name: 'suspended_at', nullable: true })
  suspendedAt: Date | null;

  @Column('text', { name: 'suspension_reason', nullable: true })
  suspensionReason: string | null;

  @Column('text', { name: 'auto_settlement_frequency', default: 'manual' })
  autoSettlementFrequency: SettlementFrequency;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
