import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode, PaymentStatus } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';

const money = { type: 'numeric', precision: 20, scale: 2, transformer: amountTransformer } as const;

/** A split as stored: the share as exact text ("0.2500"), its part once the payment succeeded. */
export interface StoredSplit {
  subaccount: string;
  share: string;
  amount: string | null;
}

@Entity({ name: 'payments' })
export class PaymentEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** Public reference (`PAY-…`; `PAY_…` before issue 12), also the reference the provider knows the transaction by. */
  @Column('text')
  reference: string;

  @Column('text')
  status: PaymentStatus;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  /** Copied from the customer (immutable) so a payment renders without a join. */
  @Column('text', { name: 'customer_reference' })
  customerReference: string;

  @Column('text')
  email: string;

  @Column(money)
  amount: Amount;

  @Column('text')
  currency: Currency;

  @Column({ ...money, name: 'platform_fee', nullable: true })
  platformFee: Amount | null;

  @Column({ ...money, name: 'provider_fee', nullable: true })
  providerFee: Amount | null;

  @Column({ ...money, name: 'net_amount', nullable: true })
  netAmount: Amount | null;

  @Column({ ...money, name: 'amount_refunded' })
  amountRefunded: Amount;

  @Column('text', { name: 'callback_url', nullable: true })
  callbackUrl: string | null;

  @Column('jsonb')
  metadata: Record<string, unknown>;

  @Column('jsonb')
  splits: StoredSplit[];

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey: string | null;

  /** The key space of `idempotencyKey` (the entry point that was given the key); null without a key. */
  @Column('text', { name: 'idempotency_scope', nullable: true })
  idempotencyScope: string | null;

  /** SHA-256 of the canonical request that created the payment; a retry under its key must match it. */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash: string | null;

  @Column('uuid', { name: 'authorization_id', nullable: true })
  authorizationId: string | null;

  @Column('timestamptz', { name: 'charge_at', nullable: true })
  chargeAt: Date | null;

  /** When a scheduler claimed this scheduled charge; from then on it can no longer be cancelled. */
  @Column('timestamptz', { name: 'triggered_at', nullable: true })
  triggeredAt: Date | null;

  @Column('text', { name: 'gateway_response', nullable: true })
  gatewayResponse: string | null;

  @Column('text', { nullable: true })
  channel: string | null;

  @Column('timestamptz', { name: 'paid_at', nullable: true })
  paidAt: Date | null;

  @Column('text', { name: 'provider_transaction_id', nullable: true })
  providerTransactionId: string | null;

  @Column('text', { name: 'provider_access_code', nullable: true })
  providerAccessCode: string | null;

  /** The provider's hosted checkout; customers reach it through our `/checkout/{reference}` redirect. */
  @Column('text', { name: 'provider_authorization_url', nullable: true })
  providerAuthorizationUrl: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
