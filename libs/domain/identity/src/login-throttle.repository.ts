import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LoginThrottleEntity } from './entities/login-throttle.entity';

/** Failed-login counters per e-mail hash (table `portal_login_throttle`). */
@Injectable()
export class LoginThrottleRepository {
  constructor(@InjectRepository(LoginThrottleEntity) private readonly throttles: Repository<LoginThrottleEntity>) {}

  /** Until when the address is locked; null when it is not, or has no row. */
  async findLockedUntil(emailHash: string): Promise<Date | null> {
    const rows: Array<{ locked_until: Date | null }> = await this.throttles.query('SELECT locked_until FROM portal_login_throttle WHERE email_hash = $1', [emailHash]);
    return rows[0]?.locked_until ?? null;
  }

  /**
   * Counts a failure: a row whose window started at or before `windowStart`, or that was locked,
   * starts over at 1 from `now`; the failure that reaches `maxFailures` locks until `lockUntil`.
   */
  async recordFailure(emailHash: string, now: Date, windowStart: Date, maxFailures: number, lockUntil: Date): Promise<void> {
    // One statement, so concurrent failures cannot both read the old count.
    await this.throttles.query(
      `INSERT INTO portal_login_throttle AS t (email_hash, failures, window_started_at, locked_until)
       VALUES ($1, 1, $2, CASE WHEN 1 >= $4 THEN $5::timestamptz END)
       ON CONFLICT (email_hash) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN $2 ELSE t.window_started_at END,
         locked_until = CASE
           WHEN (CASE WHEN t.window_started_at <= $3 OR t.locked_until IS NOT NULL THEN 1 ELSE t.failures + 1 END) >= $4
           THEN $5::timestamptz END`,
      [emailHash, now, windowStart, maxFailures, lockUntil],
    );
  }

  /** Forgets the address's failures and lock. */
  async delete(emailHash: string): Promise<void> {
    await this.throttles.query('DELETE FROM portal_login_throttle WHERE email_hash = $1', [emailHash]);
  }

  /** Deletes rows whose window started at or before `windowStart` and that are not locked past `now`. Returns how many. */
  async deleteStale(windowStart: Date, now: Date): Promise<number> {
    const [, deleted] = (await this.throttles.query(
      'DELETE FROM portal_login_throttle WHERE window_started_at <= $1 AND (locked_until IS NULL OR locked_until <= $2)',
      [windowStart, now],
    )) as [unknown, number];
    return Number(deleted);
  }
}
