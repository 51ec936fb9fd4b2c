import { Inject, Injectable } from '@nestjs/common';
import type { Mode } from '@gateway/contracts';
import { InjectDataSource } from '@nestjs/typeorm';
import { AuditService } from '@gateway/domain/audit';
import { APP_CONFIG, type AppConfig, Clock, inTransaction, randomToken, sha256Hex } from '@gateway/platform';
import type { DataSource } from 'typeorm';
import { createHmac } from 'node:crypto';
import type { PortalSessionEntity, SessionStage } from './entities/portal-session.entity';
import type { PortalActor } from './portal-actor';
import { SessionsRepository } from './sessions.repository';
import { UsersService } from './users.service';

/** How long a password-checked session may wait for its TOTP code. */
export const PENDING_TOTP_SESSION_MS = 5 * 60_000;

export interface SessionClient {
  ip?: string;
  userAgent?: string;
}

export interface StartedSession {
  /** The cookie value. Shown once; only its SHA-256 is stored. */
  token: string;
  session: PortalSessionEntity;
}

export interface ResolvedSession {
  id: string;
  stage: SessionStage;
  mode: Mode;
  expiresAt: Date;
  idleExpiresAt: Date;
  actor: PortalActor;
}

/**
 * Server-side portal sessions. The browser holds a random token in an httpOnly cookie; the
 * table holds its SHA-256, so a database leak yields no usable session. A session ends at its
 * idle timeout, at its absolute expiry, at logout, or when the password changes.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** Starts a session; a full (`active`) one is a sign-in, recorded in the audit log with it. */
  async start(userId: string, stage: SessionStage, client: SessionClient = {}): Promise<StartedSession> {
    const now = this.clock.now();
    const token = newSessionToken();
    const actor = stage === 'active' ? await this.users.actor(userId) : null;
    const session = await inTransaction(this.dataSource, async (m) => {
      const started = await this.sessions.insert(
        {
          tokenHash: sha256Hex(token),
          userId,
          stage,
          mode: 'test',
          createdAt: now,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + this.lifetimeMs(stage)),
          ip: client.ip ?? null,
          userAgent: client.userAgent?.slice(0, 500) ?? null,
        },
        m,
      );
      if (actor) {
        await this.audit.record(m, {
          actor: { type: 'user', id: userId, label: actor.email, ip: client.ip ?? null },
          action: 'portal.sign_in',
          developerId: actor.account?.developerId ?? null,
          target: { type: 'user', id: userId },
          after: { user_agent: client.userAgent?.slice(0, 200) ?? null },
        });
      }
      return started;
    });
    return { token, session };
  }

  /**
   * The live session behind a cookie value, its idle timer restarted; null when unknown,
   * expired (then deleted) or its user is gone.
   */
  async resolve(token: string): Promise<ResolvedSession | null> {
    if (!token) return null;
    const session = await this.sessions.findByTokenHash(sha256Hex(token));
    if (!session) return null;
    const now = this.clock.now();
    if (session.expiresAt <= now || this.idleExpiry(session.lastSeenAt) <= now) {
      await this.sessions.delete(session.id);
      return null;
    }
    const actor = await this.users.actor(session.userId);
    if (!actor) return null;
    await this.sessions.touch(session.id, now);
    return {
      id: session.id,
      stage: session.stage,
      mode: session.mode,
      expiresAt: session.expiresAt,
      idleExpiresAt: this.idleExpiry(now),
      actor,
    };
  }

  /**
   * The second factor was given: the pending session is replaced by a full one under a new
   * token, so a token seen before the second factor is worth nothing after it.
   */
  async promote(sessionId: string, client: SessionClient = {}): Promise<StartedSession> {
    const pending = await this.sessions.findByIdOrFail(sessionId);
    await this.sessions.delete(sessionId);
    return this.start(pending.userId, 'active', client);
  }

  async setMode(sessionId: string, mode: Mode): Promise<void> {
    await this.sessions.setMode(sessionId, mode);
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** Signs the user out everywhere (password reset, removal from the team). */
  async endAllForUser(userId: string): Promise<void> {
    await this.sessions.deleteOfUser(userId);
  }

  /** Housekeeping: drops sessions past their absolute expiry. Returns how many. */
  async purgeExpired(): Promise<number> {
    return this.sessions.deleteExpired(this.clock.now());
  }

  private lifetimeMs(stage: SessionStage): number {
    return stage === 'pending_totp' ? PENDING_TOTP_SESSION_MS : this.config.portal.sessionAbsoluteHours * 3_600_000;
  }

  private idleExpiry(lastSeenAt: Date): Date {
    return new Date(lastSeenAt.getTime() + this.config.portal.sessionIdleMinutes * 60_000);
  }
}

function newSessionToken(): string {
  return randomToken(32);
}

/**
 * The CSRF token of a session: an HMAC keyed by the session token. Only someone who holds the
 * (httpOnly) session cookie can compute it, it needs no storage, and it dies with the session.
 */
export function csrfTokenForSession(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('portal-csrf-v1').digest('base64url');
}
