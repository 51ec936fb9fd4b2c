import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock } from '@gateway/platform';
import { LoginThrottleRepository } from './login-throttle.repository';
import { PortalTokensRepository } from './portal-tokens.repository';
import { SessionsRepository } from './sessions.repository';

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
    private readonly sessions: SessionsRepository,
    private readonly tokens: PortalTokensRepository,
    private readonly throttles: LoginThrottleRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async purge(): Promise<HousekeepingResult> {
    const now = this.clock.now();
    const idleSince = new Date(now.getTime() - this.config.portal.sessionIdleMinutes * 60_000);
    const windowStart = new Date(now.getTime() - this.config.portal.loginLockoutMinutes * 60_000);
    const sessions = await this.sessions.deleteEnded(now, idleSince);
    const tokens = await this.tokens.deleteExpiredBefore(new Date(now.getTime() - SPENT_TOKEN_RETENTION_MS));
    const throttles = await this.throttles.deleteStale(windowStart, now);
    return { sessions, tokens, throttles };
  }
}
