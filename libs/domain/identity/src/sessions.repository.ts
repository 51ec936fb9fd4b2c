import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { type EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { PortalSessionEntity } from './entities/portal-session.entity';

/** Portal sessions (table `portal_sessions`), found by the SHA-256 of the cookie value. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectRepository(PortalSessionEntity) private readonly sessions: Repository<PortalSessionEntity>) {}

  /** Inserts a session and returns it with its generated id. */
  insert(session: Omit<PortalSessionEntity, 'id'>, manager: EntityManager = this.sessions.manager): Promise<PortalSessionEntity> {
    const sessions = manager.getRepository(PortalSessionEntity);
    return sessions.save(sessions.create(session));
  }

  /** The session whose cookie value has this SHA-256, expired or not; null when none. */
  findByTokenHash(tokenHash: string): Promise<PortalSessionEntity | null> {
    return this.sessions.findOneBy({ tokenHash });
  }

  /** @throws EntityNotFoundError when the session is gone */
  findByIdOrFail(id: string): Promise<PortalSessionEntity> {
    return this.sessions.findOneByOrFail({ id });
  }

  /** Records activity: the idle timeout counts from `at`. */
  async touch(id: string, at: Date): Promise<void> {
    await this.sessions.update({ id }, { lastSeenAt: at });
  }

  /** Sets the mode the portal shows in this session. */
  async setMode(id: string, mode: Mode): Promise<void> {
    await this.sessions.update({ id }, { mode });
  }

  /** Ends one session. */
  async delete(id: string): Promise<void> {
    await this.sessions.delete({ id });
  }

  /** Ends every session of the user. */
  async deleteOfUser(userId: string): Promise<void> {
    await this.sessions.delete({ userId });
  }

  /** Deletes sessions past their absolute expiry. Returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const result = await this.sessions.delete({ expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }

  /** Deletes sessions past their absolute expiry or idle since `idleSince`. Returns how many. */
  async deleteEnded(now: Date, idleSince: Date): Promise<number> {
    const [, deleted] = (await this.sessions.query('DELETE FROM portal_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince])) as [unknown, number];
    return Number(deleted);
  }
}
