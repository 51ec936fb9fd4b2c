import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AccountRole } from '../roles';

export type PortalTokenPurpose = 'email_verification' | 'password_reset' | 'invitation';

/** A single-use, expiring link token (e-mail verification, password reset, invitation). */
@Entity({ name: 'portal_tokens' })
export class PortalTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('char', { name: 'token_hash', length: 64 })
  tokenHash: string;

  @Column('text')
  purpose: PortalTokenPurpose;

  @Column('text')
  email: string;

  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  @Column('uuid', { name: 'developer_id', nullable: true })
  developerId: string | null;

  @Column('text', { nullable: true })
  role: AccountRole | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;
}
