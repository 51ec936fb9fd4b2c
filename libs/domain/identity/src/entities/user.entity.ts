import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { PlatformRole } from '../roles';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Always stored lower-case. */
  @Column('text')
  email: string;

  @Column('text')
  name: string;

  /** argon2id; null until the user sets a password (accepting an invitation). */
  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash: string | null;

  @Column('text', { name: 'platform_role', nullable: true })
  platformRole: PlatformRole | null;

  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  @Column('timestamptz', { name: 'password_changed_at', nullable: true })
  passwordChangedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
