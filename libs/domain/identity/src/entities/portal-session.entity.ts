import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

export type SessionStage = 'pending_totp' | 'active';

@Entity({ name: 'portal_sessions' })
export class PortalSessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** SHA-256 of the cookie value; the token itself is never stored. */
  @Column('char', { name: 'token_hash', length: 64 })
  tokenHash: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  stage: SessionStage;

  /** The mode the portal shows; live only after a TOTP-confirmed switch. */
  @Column('text', { default: 'test' })
  mode: Mode;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_seen_at' })
  lastSeenAt: Date;

  /** Absolute expiry, whatever the activity. */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('text', { nullable: true })
  ip: string | null;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;
}
