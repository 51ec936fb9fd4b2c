import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SettlementOrigin, SettlementStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'settlements' })
export class SettlementEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  /** Always `live`: only real money is settled to a bank. */
  @Column('text')
  mode: 'live';

  /** Public reference (`stl_…`), and the provider's reference for its payout: the bank is paid once. */
  @Column('text')
  reference: string;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column('text')
  status: SettlementStatus;

  @Column('text')
  origin: SettlementOrigin;

  /** The destination as it was when requested: a later change of account does not redirect it. */
  @Column('text', { name: 'bank_code' })
  bankCode: string;

  @Column('text', { name: 'account_number' })
  accountNumber: string;

  @Column('text', { name: 'account_name' })
  accountName: string;

  /** The portal user who asked; null for an auto-settlement. */
  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy: string | null;

  @Column('text', { name: 'requested_ip', nullable: true })
  requestedIp: string | null;

  @Column('int', { name: 'approvals_required' })
  approvalsRequired: number;

  /** The day or week an auto-settlement belongs to (`2026-11-26`, `2026-W48`): one per account and currency. */
  @Column('text', { name: 'auto_period', nullable: true })
  autoPeriod: string | null;

  @Column('text', { name: 'provider_transfer_code', nullable: true })
  providerTransferCode: string | null;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: string | null;

  @Column('text', { name: 'rejection_reason', nullable: true })
  rejectionReason: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'approved_at', nullable: true })
  approvedAt: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
