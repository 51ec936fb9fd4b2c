import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';
import type { Currency } from '@gateway/platform';

/** A bank account the merchant pays, saved at the provider (its recipient code stays internal). */
@Entity({ name: 'transfer_recipients' })
export class TransferRecipientEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public code (`RCP_…`), distinct from the provider's. */
  @Column('text', { name: 'recipient_code' })
  recipientCode: string;

  @Column('text', { name: 'account_name' })
  accountName: string;

  @Column('text', { name: 'account_number' })
  accountNumber: string;

  @Column('text', { name: 'bank_code' })
  bankCode: string;

  @Column('text', { name: 'bank_name' })
  bankName: string;

  @Column('text')
  currency: Currency;

  @Column('text', { name: 'provider_recipient_code' })
  providerRecipientCode: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
