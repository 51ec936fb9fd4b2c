import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

const bigintAsNumber = {
  to: (value: number | null) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

@Entity({ name: 'user_totp' })
export class UserTotpEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  /** AES-256-GCM envelope (names its key id), bound to the user id as associated data. */
  @Column('text', { name: 'secret_ciphertext' })
  secretCiphertext: string;

  /** Null while enrolment awaits its first code. */
  @Column('timestamptz', { name: 'confirmed_at', nullable: true })
  confirmedAt: Date | null;

  /** The 30-second step of the last accepted code: that code and older ones are refused. */
  @Column('bigint', { name: 'last_used_step', nullable: true, transformer: bigintAsNumber })
  lastUsedStep: number | null;

  @Column('integer', { name: 'consecutive_failures', default: 0 })
  consecutiveFailures: number;

  @Column('timestamptz', { name: 'locked_until', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
