import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

export type IdempotencyKeyStatus = 'in_progress' | 'completed';

/** A remembered idempotency key: who used it where, for which request, and the answer once known. */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** POST, PUT, PATCH or DELETE. */
  @Column('text')
  method: string;

  /** The route pattern (`/api/v1/customers/:ref`), not the concrete URL. */
  @Column('text')
  route: string;

  @Column('text')
  key: string;

  /** SHA-256 (hex) of the canonical JSON of the request; a retry must match it. */
  @Column('char', { name: 'request_hash', length: 64 })
  requestHash: string;

  @Column('text')
  status: IdempotencyKeyStatus;

  /** Renewed on every claim and takeover: only the current holder may complete or release. */
  @Column('uuid', { name: 'claim_token' })
  claimToken: string;

  /** When the current claim was taken: drives both the abandonment timeout and retention. */
  @Column('timestamptz', { name: 'claimed_at' })
  claimedAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('smallint', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  /** The exact response body text that was sent, replayed byte for byte. */
  @Column('text', { name: 'response_body', nullable: true })
  responseBody: string | null;
}
