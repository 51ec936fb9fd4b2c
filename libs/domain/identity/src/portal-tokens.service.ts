import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Clock, DomainError, randomToken, sha256Hex } from '@gateway/platform';
import { type EntityManager, IsNull, Repository } from 'typeorm';
import { PortalTokenEntity, type PortalTokenPurpose } from './entities/portal-token.entity';
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
    @InjectRepository(PortalTokenEntity) private readonly tokens: Repository<PortalTokenEntity>,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a token (returned once, for the e-mail). Earlier unused tokens for the same purpose
   * and address (and account, for invitations) stop working: only the newest link counts.
   */
  async issue(input: NewPortalToken, manager: EntityManager = this.tokens.manager): Promise<{ token: string; record: PortalTokenEntity }> {
    const now = this.clock.now();
    const token = randomToken(32);
    await manager.update(
      PortalTokenEntity,
      { purpose: input.purpose, email: input.email, usedAt: IsNull(), ...(input.developerId ? { developerId: input.developerId } : {}) },
      { usedAt: now },
    );
    const record = await manager.save(
      manager.create(PortalTokenEntity, {
        tokenHash: sha256Hex(token),
        purpose: input.purpose,
        email: input.email,
        userId: input.userId ?? null,
        developerId: input.developerId ?? null,
        role: input.role ?? null,
        createdBy: input.createdBy ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[input.purpose]),
      }),
    );
    return { token, record };
  }

  /**
   * Marks the token used and returns it. Run it in the caller's transaction so a later failure
   * gives the token back.
   * @throws invalid_token (unknown, already used, expired or for another purpose)
   */
  async consume(purpose: PortalTokenPurpose, token: string, manager: EntityManager = this.tokens.manager): Promise<PortalTokenEntity> {
    const now = this.clock.now();
    const result = await manager
      .createQueryBuilder()
      .update(PortalTokenEntity)
      .set({ usedAt: now })
      .where('token_hash = :hash AND purpose = :purpose AND used_at IS NULL AND expires_at > :now', { hash: sha256Hex(token), purpose, now })
      .returning('id')
      .execute();
    const id = (result.raw as Array<{ id: string }>)[0]?.id;
    if (!id) throw new DomainError('invalid_token', 'This link is invalid, already used or expired. Ask for a new one.');
    return manager.findOneByOrFail(PortalTokenEntity, { id });
  }

  /** Pending invitations of an account, newest first. */
  pendingInvitations(developerId: string): Promise<PortalTokenEntity[]> {
    return this.tokens
      .createQueryBuilder('t')
      .where("t.purpose = 'invitation' AND t.developer_id = :developerId AND t.used_at IS NULL AND t.expires_at > :now", { developerId, now: this.clock.now() })
      .orderBy('t.created_at', 'DESC')
      .getMany();
  }

  /** Withdraws a pending invitation. @throws not_found (also another account's) */
  async revokeInvitation(developerId: string, id: string): Promise<void> {
    const result = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.tokens.update({ id, developerId, purpose: 'invitation', usedAt: IsNull() }, { usedAt: this.clock.now() })
      : { affected: 0 };
    if (!result.affected) throw new DomainError('not_found', 'No such pending invitation.');
  }
}
