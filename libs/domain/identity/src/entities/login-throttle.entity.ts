import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'portal_login_throttle' })
export class LoginThrottleEntity {
  /** SHA-256 of the normalised e-mail (known or not). */
  @PrimaryColumn('char', { name: 'email_hash', length: 64 })
  emailHash: string;

  @Column('integer')
  failures: number;

  @Column('timestamptz', { name: 'window_started_at' })
  windowStartedAt: Date;

  @Column('timestamptz', { name: 'locked_until', nullable: true })
  lockedUntil: Date | null;
}
