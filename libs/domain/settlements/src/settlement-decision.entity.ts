import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One approval or rejection of a settlement: who, when, from where, and why. */
@Entity({ name: 'settlement_decisions' })
export class SettlementDecisionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'settlement_id' })
  settlementId: string;

  /** Null for the auto-approval of an auto-settlement within the configured limit. */
  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  @Column('text')
  decision: 'approve' | 'reject';

  @Column('text', { nullable: true })
  ip: string | null;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
