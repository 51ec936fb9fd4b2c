import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ApiKeyKind, Mode, Scope } from '@gateway/contracts';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  @Column('text')
  kind: ApiKeyKind;

  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  @Column('char', { name: 'key_hash', length: 64 })
  keyHash: string;

  /** Prefix and last four characters, e.g. `sk_test_…9f3a`, to tell keys apart. */
  @Column('text', { name: 'key_hint' })
  keyHint: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text', { array: true, default: () => "'{}'" })
  scopes: Scope[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('text', { name: 'last_used_ip', nullable: true })
  lastUsedIp: string | null;
}
