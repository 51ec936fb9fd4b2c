import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DevelopersService } from '@gateway/domain/developers';
import { APP_CONFIG, type AppConfig, inTransaction } from '@gateway/platform';
import type { DataSource } from 'typeorm';
import { LoginThrottleService } from './login-throttle.service';
import { emailVerificationMail, passwordResetMail } from './mail/identity-mails';
import { MailerService } from './mail/mailer.service';
import { MembershipsRepository } from './memberships.repository';
import { assertPasswordPolicy } from './password-hasher';
import { PortalTokensService } from './portal-tokens.service';
import { SessionsService } from './sessions.service';
import { UsersService } from './users.service';

/** E-mail verification and password reset by single-use links. */
@Injectable()
export class AccountRecoveryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersService,
    private readonly tokens: PortalTokensService,
    private readonly mailer: MailerService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly developers: DevelopersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** E-mails a verification link to the user's address (already verified: nothing to do). */
  async requestEmailVerification(userId: string): Promise<void> {
    const user = await this.users.get(userId);
    if (user.emailVerifiedAt) return;
    const { token } = await this.tokens.issue({ purpose: 'email_verification', email: user.email, userId: user.id });
    await this.mailer.send(emailVerificationMail(user.email, this.config.portal.baseUrl, token));
  }

  /** @throws invalid_token */
  async confirmEmailVerification(token: string): Promise<void> {
    const record = await this.tokens.consume('email_verification', token);
    if (!record.userId) return;
    await this.users.markEmailVerified(record.userId);
    await this.verifyAccountEmailOf(record.userId, record.email);
  }

  /**
   * E-mails a reset link if the address belongs to a user. The answer to the caller is the same
   * either way, so this cannot be used to discover accounts.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const { token } = await this.tokens.issue({ purpose: 'password_reset', email: user.email, userId: user.id });
    await this.mailer.send(passwordResetMail(user.email, this.config.portal.baseUrl, token));
  }

  /**
   * Sets a new password from a reset link and signs the user out everywhere. The link proves
   * the mailbox, so the e-mail counts as verified too.
   * @throws validation_error (password policy), invalid_token
   */
  async confirmPasswordReset(token: string, password: string): Promise<void> {
    assertPasswordPolicy(password);
    const userId = await inTransaction(this.dataSource, async (m) => (await this.tokens.consume('password_reset', token, m)).userId);
    if (!userId) return;
    await this.users.setPassword(userId, password);
    await this.users.markEmailVerified(userId);
    await this.sessions.endAllForUser(userId);
    const user = await this.users.get(userId);
    await this.throttle.reset(user.email);
  }

  /**
   * The developer account's own e-mail is verified when its owner proves that same mailbox
   * (test mode opens after e-mail verification).
   */
  async verifyAccountEmailOf(userId: string, email: string): Promise<void> {
    const membership = await this.memberships.findByUserId(userId);
    if (!membership || membership.role !== 'owner') return;
    const developer = await this.developers.get(membership.developerId);
    if (developer.email === email && !developer.emailVerifiedAt) await this.developers.verifyEmail(developer.id);
  }
}
