import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type AuditActor, AuditService } from '@gateway/domain/audit';
import { APP_CONFIG, type AppConfig, Clock, DomainError, Encryptor, inTransaction } from '@gateway/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { UserTotpEntity } from '../entities/user-totp.entity';
import { tooManyAttempts } from '../login-throttle.service';
import { generateTotpSecret, matchTotpStep, otpauthUrl } from './totp-codes';
import { UserTotpRepository } from './user-totp.repository';

/** Consecutive wrong codes that lock the second factor for TOTP_LOCKOUT_MINUTES. */
export const TOTP_MAX_FAILURES = 5;
export const TOTP_ISSUER = 'Payment Gateway';

export interface TotpEnrolment {
  /** Base32; shown once, at enrolment. */
  secret: string;
  otpauthUrl: string;
}

/**
 * Time-based one-time passwords (RFC 6238) as a user's second factor. The secret is stored
 * AES-256-GCM-encrypted and bound to the user id; each accepted code's time step is recorded so
 * the same code cannot be used twice; five wrong codes in a row lock the factor for a while.
 */
@Injectable()
export class TotpService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly totp: UserTotpRepository,
    private readonly encryptor: Encryptor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  /**
   * Starts (or restarts) enrolment with a new secret; the factor is active only once `confirm`
   * accepts a code from it.
   * @throws conflict when TOTP is already enabled
   */
  async enroll(userId: string, accountName: string): Promise<TotpEnrolment> {
    const existing = await this.totp.findByUserId(userId);
    if (existing?.confirmedAt) throw new DomainError('conflict', 'Two-factor authentication is already enabled.');
    const secret = generateTotpSecret();
    await this.totp.startEnrolment(userId, this.encryptor.encrypt(secret, secretContext(userId)));
    return { secret, otpauthUrl: otpauthUrl(secret, accountName, TOTP_ISSUER) };
  }

  /**
   * Activates a pending enrolment with a code from the authenticator app.
   * @throws totp_required (nothing to confirm), conflict (already enabled), totp_invalid, too_many_attempts
   */
  async confirm(userId: string, code: string, actor?: TotpAuditActor): Promise<void> {
    await this.check(userId, code, 'enrolment', actor ?? { actor: { type: 'user', id: userId, label: null }, developerId: null });
  }

  async isEnabled(userId: string): Promise<boolean> {
    return (await this.totp.findByUserId(userId))?.confirmedAt != null;
  }

  /**
   * Checks a code of an enabled factor (second login step, step-up before sensitive actions).
   * @throws totp_required (not enabled), totp_invalid (wrong or reused code), too_many_attempts (locked)
   */
  async verify(userId: string, code: string): Promise<void> {
    await this.check(userId, code, 'enabled');
  }

  private async check(userId: string, code: string, expect: 'enrolment' | 'enabled', enabling?: TotpAuditActor): Promise<void> {
    // The failure count and last step must survive the refusal, so the outcome is decided inside
    // the transaction and thrown only after it commits.
    const refusal = await inTransaction(this.dataSource, (m) => this.checkLocked(m, userId, code, expect, enabling));
    if (refusal) throw refusal;
  }

  private async checkLocked(m: EntityManager, userId: string, code: string, expect: 'enrolment' | 'enabled', enabling?: TotpAuditActor): Promise<DomainError | null> {
    const row = await this.totp.findForUpdate(m, userId);
    if (expect === 'enabled' && !row?.confirmedAt) {
      return new DomainError('totp_required', 'Enable two-factor authentication (TOTP) first.');
    }
    if (expect === 'enrolment') {
      if (!row) return new DomainError('totp_required', 'Start the enrolment first: POST /api/portal/me/totp/enroll.');
      if (row.confirmedAt) return new DomainError('conflict', 'Two-factor authentication is already enabled.');
    }
    const totp = row as UserTotpEntity;
    const now = this.clock.now();
    if (totp.lockedUntil && totp.lockedUntil > now) return tooManyAttempts(totp.lockedUntil, now);

    const secret = this.encryptor.decrypt(totp.secretCiphertext, secretContext(userId));
    const step = matchTotpStep(secret, code.trim(), now);
    if (step !== null && (totp.lastUsedStep === null || step > totp.lastUsedStep)) {
      await this.totp.recordAcceptedCode(m, userId, step, expect === 'enrolment' ? now : undefined);
      if (enabling) {
        await this.audit.record(m, {
          actor: enabling.actor,
          action: 'totp.enabled',
          developerId: enabling.developerId,
          target: { type: 'user', id: userId },
          before: { totp_enabled: false },
          after: { totp_enabled: true },
        });
      }
      return null;
    }

    const failures = totp.consecutiveFailures + 1;
    const locks = failures >= TOTP_MAX_FAILURES;
    const lockedUntil = locks ? new Date(now.getTime() + this.config.portal.totpLockoutMinutes * 60_000) : null;
    await this.totp.recordRefusedCode(m, userId, locks ? 0 : failures, lockedUntil);
    const reason = step === null ? 'The code is not valid.' : 'This code has already been used; wait for the next one.';
    const consequence = locks ? ` Too many wrong codes: two-factor checks are locked for ${this.config.portal.totpLockoutMinutes} minutes.` : '';
    return new DomainError('totp_invalid', `${reason}${consequence}`);
  }
}

/** Who turns TOTP on (the user themself) and the account they belong to, for the audit log. */
export interface TotpAuditActor {
  actor: AuditActor;
  developerId: string | null;
}

/** Associated data: a ciphertext copied onto another user's row does not decrypt. */
function secretContext(userId: string): string {
  return `user_totp:${userId}`;
}
