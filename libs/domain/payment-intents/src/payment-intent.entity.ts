import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';
import { type Amount, amountTransformer, type Currency } from '@gateway/platform';
import type { PaymentIntentRowStatus } from './payment-intent-status';

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
  status: PaymentIntentRowStatus;

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

  /** The saved card held; null while `requires_action` (the customer has not authorized a card yet). */
  @Column('uuid', { name: 'authorization_id', nullable: true })
  authorizationId: string | null;

  /** The provider's authorize-only checkout (requires_action); never on the wire — see hold-checkout redirect. */
  @Column('text', { name: 'provider_authorization_url', nullable: true })
  providerAuthorizationUrl: string | null;

  @Column('jsonb')
  metadata: Record<string, unknown>;

  @Column('uuid', { name: 'payment_id', nullable: true })
  paymentId: string | null;

  /** The amount a capture claimed (status `capturing`); kept once it succeeded. */
  @Column({ ...money, name: 'capture_amount', nullable: true })
  captureAmount: Amount | null;

  @Column('timestamptz', { name: 'capture_started_at', nullable: true })
  captureStartedAt: Date | null;

  /** When the provider released the hold of a canceled or expired intent; null there = a release is still owed. */
  @Column('timestamptz', { name: 'released_at', nullable: true })
  releasedAt: Date | null;

  /** The create's Idempotency-Key, so a retry after a timeout resumes this intent (and its hold). */
  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey: string | null;

  /** What the create asked for (requestFingerprint), to refuse the key's reuse for another request. */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash: string | null;

  /** When the hold lapses; while `requires_action`, when the authorization link lapses. */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
