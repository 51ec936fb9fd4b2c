import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Clock } from '@gateway/platform';
import type { DataSource } from 'typeorm';

/** Spent link tokens are kept this long after expiring (who invited whom, for support). */
export const SPENT_TOKEN_RETENTION_MS = 30 * 24 * 3_600_000;

export interface HousekeepingResult {
  sessions: number;
  tokens: number;
  throttles: number;
}

/**
 * Deletes what can no longer be used: ended sessions (idle or past their absolute expiry), link
 * tokens a month past their expiry, and login-throttle rows whose window and lock are over.
 * Nothing here changes behaviour — expired rows are refused anyway — it only keeps tables small.
 */
@Injectable()
export class IdentityHousekeepingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async purge(): Promise<HousekeepingResult> {
    const now = this.clock.now();
    const idleSince = new Date(now.getTime() - this.config.portal.sessionIdleMinutes * 60_000);
    const windowStart = new Date(now.getTime() - this.config.portal.loginLockoutMinutes * 60_000);
    const [, sessions] = await this.dataSource.query('DELETE FROM portal_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince]);
    const [, tokens] = await this.dataSource.query('DELETE FROM portal_tokens WHERE expires_at <= $1', [new Date(now.getTime() - SPENT_TOKEN_RETENTION_MS)]);
    const [, throttles] = await this.dataSource.query(
      'DELETE FROM portal_login_throttle WHERE window_started_at <= $1 AND (locked_until IS NULL OR locked_until <= $2)',
      [windowStart, now],
    );
    return { sessions: Number(sessions), tokens: Number(tokens), throttles: Number(throttles) };
  }
}
