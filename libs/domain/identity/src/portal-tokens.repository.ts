import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, IsNull, Repository } from 'typeorm';
import { PortalTokenEntity, type PortalTokenPurpose } from './entities/portal-token.entity';

/** Link tokens (table `portal_tokens`), found by the SHA-256 of the token, never the token itself. */
@Injectable()
export class PortalTokensRepository {
  constructor(@InjectRepository(PortalTokenEntity) private readonly tokens: Repository<PortalTokenEntity>) {}

  /**
   * Marks used every unused token of this purpose and address (and account, when `developerId`
   * is given), whether expired or not.
   */
  async retireUnused(scope: { purpose: PortalTokenPurpose; email: string; developerId?: string }, now: Date, manager: EntityManager = this.tokens.manager): Promise<void> {
    await manager.update(
      PortalTokenEntity,
      { purpose: scope.purpose, email: scope.email, usedAt: IsNull(), ...(scope.developerId ? { developerId: scope.developerId } : {}) },
      { usedAt: now },
    );
  }

  /** Inserts a token and returns it with its generated id. */
  insert(token: Omit<PortalTokenEntity, 'id' | 'usedAt'>, manager: EntityManager = this.tokens.manager): Promise<PortalTokenEntity> {
    return manager.save(manager.create(PortalTokenEntity, token));
  }

  /**
   * Marks the token used if it is unused, unexpired and of this purpose — one conditional UPDATE,
   * so of two concurrent calls only one wins. Returns its id, or undefined when nothing matched.
   */
  async markUsed(tokenHash: string, purpose: PortalTokenPurpose, now: Date, manager: EntityManager = this.tokens.manager): Promise<string | undefined> {
    const result = await manager
      .createQueryBuilder()
      .update(PortalTokenEntity)
      .set({ usedAt: now })
      .where('token_hash = :hash AND purpose = :purpose AND used_at IS NULL AND expires_at > :now', { hash: tokenHash, purpose, now })
      .returning('id')
      .execute();
    return (result.raw as Array<{ id: string }>)[0]?.id;
  }

  /** @throws EntityNotFoundError when there is no such token */
  findByIdOrFail(id: string, manager: EntityManager = this.tokens.manager): Promise<PortalTokenEntity> {
    return manager.findOneByOrFail(PortalTokenEntity, { id });
  }

  /** An account's unused, unexpired invitations, newest first. */
  findPendingInvitations(developerId: string, now: Date): Promise<PortalTokenEntity[]> {
    return this.tokens
      .createQueryBuilder('t')
      .where("t.purpose = 'invitation' AND t.developer_id = :developerId AND t.used_at IS NULL AND t.expires_at > :now", { developerId, now })
      .orderBy('t.created_at', 'DESC')
      .getMany();
  }

  /** Marks an unused invitation of the account used (expired or not); false when there is none. */
  async revokeInvitation(developerId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.tokens.update({ id, developerId, purpose: 'invitation', usedAt: IsNull() }, { usedAt: now });
    return Boolean(result.affected);
  }

  /** Deletes tokens that expired at or before `expiredBefore`, used or not. Returns how many. */
  async deleteExpiredBefore(expiredBefore: Date): Promise<number> {
    const [, deleted] = (await this.tokens.query('DELETE FROM portal_tokens WHERE expires_at <= $1', [expiredBefore])) as [unknown, number];
    return Number(deleted);
  }
}
