import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

/** A card saved by the provider on a successful payment, known to merchants as `AUTH_…`. */
@Entity({ name: 'payment_authorizations' })
export class PaymentAuthorizationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  @Column('text')
  code: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text')
  email: string;

  @Column('text', { name: 'provider_authorization_code' })
  providerAuthorizationCode: string;

  @Column('text', { name: 'provider_signature', nullable: true })
  providerSignature: string | null;

  @Column('boolean')
  reusable: boolean;

  @Column('text', { nullable: true })
  brand: string | null;

  @Column('text', { nullable: true })
  last4: string | null;

  @Column('text', { name: 'exp_month', nullable: true })
  expMonth: string | null;

  @Column('text', { name: 'exp_year', nullable: true })
  expYear: string | null;

  @Column('text', { nullable: true })
  bank: string | null;

  @Column('text', { nullable: true })
  channel: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
