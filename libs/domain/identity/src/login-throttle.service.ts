import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Clock, DomainError, sha256Hex } from '@gateway/platform';
import { LoginThrottleRepository } from './login-throttle.repository';
import { normaliseEmail } from './users.service';

/**
 * Slows password guessing per e-mail address: after PORTAL_LOGIN_MAX_FAILURES failures within
 * PORTAL_LOGIN_LOCKOUT_MINUTES the address is locked for that long. Counted for every address
 * typed, existing or not, so a lockout says nothing about which accounts exist.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly throttles: LoginThrottleRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** @throws too_many_attempts while the address is locked */
  async assertNotLocked(email: string): Promise<void> {
    const lockedUntil = await this.throttles.findLockedUntil(emailHash(email));
    if (lockedUntil && lockedUntil > this.clock.now()) throw tooManyAttempts(lockedUntil, this.clock.now());
  }

  /** Counts a failure; the one that reaches the limit starts the lock. */
  async recordFailure(email: string): Promise<void> {
    const now = this.clock.now();
    const { loginMaxFailures, loginLockoutMinutes } = this.config.portal;
    const windowStart = new Date(now.getTime() - loginLockoutMinutes * 60_000);
    const lockUntil = new Date(now.getTime() + loginLockoutMinutes * 60_000);
    await this.throttles.recordFailure(emailHash(email), now, windowStart, loginMaxFailures, lockUntil);
  }

  async reset(email: string): Promise<void> {
    await this.throttles.delete(emailHash(email));
  }
}

function emailHash(email: string): string {
  return sha256Hex(normaliseEmail(email));
}

export function tooManyAttempts(until: Date, now: Date): DomainError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new DomainError('too_many_attempts', `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}
