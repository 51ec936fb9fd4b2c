import { Injectable } from '@nestjs/common';
import { Clock, DomainError, randomToken, sha256Hex } from '@gateway/platform';
import type { EntityManager } from 'typeorm';
import type { PortalTokenEntity, PortalTokenPurpose } from './entities/portal-token.entity';
import { PortalTokensRepository } from './portal-tokens.repository';
import type { AccountRole } from './roles';

/** How long each kind of link stays valid. */
export const TOKEN_LIFETIME_MS: Record<PortalTokenPurpose, number> = {
  email_verification: 24 * 3_600_000,
  password_reset: 60 * 60_000,
  invitation: 7 * 24 * 3_600_000,
};

export interface NewPortalToken {
  purpose: PortalTokenPurpose;
  email: string;
  userId?: string;
  developerId?: string;
  role?: AccountRole;
  createdBy?: string;
}

/**
 * Single-use, expiring tokens for e-mailed links. Only the SHA-256 is stored; consuming is one
 * conditional UPDATE, so two clicks on the same link cannot both succeed.
 */
@Injectable()
export class PortalTokensService {
  constructor(
    private readonly tokens: PortalTokensRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a token (returned once, for the e-mail). Earlier unused tokens for the same purpose
   * and address (and account, for invitations) stop working: only the newest link counts.
   */
  async issue(input: NewPortalToken, manager?: EntityManager): Promise<{ token: string; record: PortalTokenEntity }> {
    const now = this.clock.now();
    const token = randomToken(32);
    await this.tokens.retireUnused({ purpose: input.purpose, email: input.email, developerId: input.developerId }, now, manager);
    const record = await this.tokens.insert(
      {
        tokenHash: sha256Hex(token),
        purpose: input.purpose,
        email: input.email,
        userId: input.userId ?? null,
        developerId: input.developerId ?? null,
        role: input.role ?? null,
        createdBy: input.createdBy ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[input.purpose]),
      },
      manager,
    );
    return { token, record };
  }

  /**
   * Marks the token used and returns it. Run it in the caller's transaction so a later failure
   * gives the token back.
   * @throws invalid_token (unknown, already used, expired or for another purpose)
   */
  async consume(purpose: PortalTokenPurpose, token: string, manager?: EntityManager): Promise<PortalTokenEntity> {
    const id = await this.tokens.markUsed(sha256Hex(token), purpose, this.clock.now(), manager);
    if (!id) throw new DomainError('invalid_token', 'This link is invalid, already used or expired. Ask for a new one.');
    return this.tokens.findByIdOrFail(id, manager);
  }

  /** Pending invitations of an account, newest first. */
  pendingInvitations(developerId: string): Promise<PortalTokenEntity[]> {
    return this.tokens.findPendingInvitations(developerId, this.clock.now());
  }

  /** Withdraws a pending invitation. @throws not_found (also another account's) */
  async revokeInvitation(developerId: string, id: string): Promise<void> {
    const revoked = /^[0-9a-f-]{36}$/i.test(id) && (await this.tokens.revokeInvitation(developerId, id, this.clock.now()));
    if (!revoked) throw new DomainError('not_found', 'No such pending invitation.');
  }
}
