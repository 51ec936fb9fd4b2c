import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode, VirtualAccountStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

@Entity({ name: 'virtual_accounts' })
export class VirtualAccountEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public id (`va_…`), used in paths. */
  @Column('text', { name: 'public_id' })
  publicId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'customer_reference' })
  customerReference: string;

  @Column('text', { name: 'account_number' })
  accountNumber: string;

  @Column('text', { name: 'account_name' })
  accountName: string;

  @Column('text', { name: 'bank_name' })
  bankName: string;

  @Column('text')
  currency: Currency;

  @Column('text')
  status: VirtualAccountStatus;

  @Column('text', { name: 'provider_account_id' })
  providerAccountId: string;

  @Column('text', { name: 'provider_customer_code' })
  providerCustomerCode: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'deactivated_at', nullable: true })
  deactivatedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/**
 * A bank transfer the provider received into a dedicated account. Matched to an account (and then
 * credited: developer, account and fees set) or unmatched (all four null) for operators to resolve.
 */
@Entity({ name: 'virtual_account_deposits' })
export class VirtualAccountDepositEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`vad_…`); the ledger postings carry it. */
  @Column('text')
  reference: string;

  @Column('uuid', { name: 'developer_id', nullable: true })
  developerId: string | null;

  @Column('uuid', { name: 'virtual_account_id', nullable: true })
  virtualAccountId: string | null;

  /** The receiving number as the provider reported it (operators match unmatched deposits by it). */
  @Column('text', { name: 'account_number', nullable: true })
  accountNumber: string | null;

  @Column({ type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer })
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column({ name: 'provider_fee', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer, nullable: true })
  providerFee: Amount | null;

  @Column({ name: 'platform_fee', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer, nullable: true })
  platformFee: Amount | null;

  @Column({ name: 'net_amount', type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer, nullable: true })
  netAmount: Amount | null;

  @Column('text', { name: 'sender_name', nullable: true })
  senderName: string | null;

  @Column('text', { name: 'sender_bank', nullable: true })
  senderBank: string | null;

  /** The provider's transaction id: unique per mode, so a deposit is recorded (and credited) once. */
  @Column('text', { name: 'provider_transaction_id' })
  providerTransactionId: string;

  @Column('text', { name: 'provider_reference' })
  providerReference: string;

  @Column('timestamptz', { name: 'paid_at' })
  paidAt: Date;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
