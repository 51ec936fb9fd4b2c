import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Clock, DomainError, sha256Hex } from '@gateway/platform';
import type { DataSource } from 'typeorm';
import { normaliseEmail } from './users.service';

/**
 * Slows password guessing per e-mail address: after PORTAL_LOGIN_MAX_FAILURES failures within
 * PORTAL_LOGIN_LOCKOUT_MINUTES the address is locked for that long. Counted for every address
 * typed, existing or not, so a lockout says nothing about which accounts exist.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** @throws too_many_attempts while the address is locked */
  async assertNotLocked(email: string): Promise<void> {
    const rows: Array<{ locked_until: Date | null }> = await this.dataSource.query(
      'SELECT locked_until FROM portal_login_throttle WHERE email_hash = $1',
      [emailHash(email)],
    );
    const lockedUntil = rows[0]?.locked_until;
    if (lockedUntil && lockedUntil > this.clock.now()) throw tooManyAttempts(lockedUntil, this.clock.now());
  }

  /** Counts a failure; the one that reaches the limit starts the lock. */
  async recordFailure(email: string): Promise<void> {
    const now = this.clock.now();
    const { loginMaxFailures, loginLockoutMinutes } = this.config.portal;
    const windowStart = new Date(now.getTime() - loginLockoutMinutes * 60_000);
    const lockUntil = new Date(now.getTime() + loginLockoutMinutes * 60_000);
    // One statement, so concurrent failures cannot both read the old count.
    await this.dataSource.query(
      `INSERT INTO portal_login_throttle AS t (email_hash, failures, window_started_at, locked_until)
       VALUES ($1, 1, $2, CASE WHEN 1 >= $4 THEN $5::timestamptz END)
       ON CONFLICT (email_hash) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN $2 ELSE t.window_started_at END,
         locked_until = CASE
           WHEN (CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN 1 ELSE t.failures + 1 END) >= $4
           THEN $5::timestamptz END`,
      [emailHash(email), now, windowStart, loginMaxFailures, lockUntil],
    );
  }

  async reset(email: string): Promise<void> {
    await this.dataSource.query('DELETE FROM portal_login_throttle WHERE email_hash = $1', [emailHash(email)]);
  }
}

function emailHash(email: string): string {
  return sha256Hex(normaliseEmail(email));
}

export function tooManyAttempts(until: Date, now: Date): DomainError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new DomainError('too_many_attempts', `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}
