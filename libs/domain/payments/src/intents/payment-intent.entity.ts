import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode, PaymentIntentStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

const money = { type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer } as const;

@Entity({ name: 'payment_intents' })
export class PaymentIntentEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** `PI-…`: the hold's reference at the provider, and the reference of the payment a capture creates. */
  @Column('text')
  reference: string;

  @Column('text')
  status: PaymentIntentStatus;

  @Column('text', { name: 'capture_method' })
  captureMethod: 'manual';

  @Column(money)
  amount: Amount;

  @Column({ ...money, name: 'captured_amount', nullable: true })
  capturedAmount: Amount | null;

  @Column('text')
  currency: Currency;

  @Column('text')
  email: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('uuid', { name: 'authorization_id' })
  authorizationId: string;

  @Column('jsonb')
  metadata: Record<string, unknown>;

  @Column('uuid', { name: 'payment_id', nullable: true })
  paymentId: string | null;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
