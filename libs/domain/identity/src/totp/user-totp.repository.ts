import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { UserTotpEntity } from '../entities/user-totp.entity';

/** Users' TOTP factors (table `user_totp`, one per user: the user id is the key). */
@Injectable()
export class UserTotpRepository {
  constructor(@InjectRepository(UserTotpEntity) private readonly totp: Repository<UserTotpEntity>) {}

  /** The user's factor (pending or confirmed), or null. */
  findByUserId(userId: string): Promise<UserTotpEntity | null> {
    return this.totp.findOneBy({ userId });
  }

  /** The user's factor, its row locked FOR UPDATE until the caller's transaction ends. */
  findForUpdate(manager: EntityManager, userId: string): Promise<UserTotpEntity | null> {
    return manager.findOne(UserTotpEntity, { where: { userId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Stores a new, unconfirmed secret, replacing any earlier one with its step, failures and lock. */
  async startEnrolment(userId: string, secretCiphertext: string): Promise<void> {
    await this.totp.upsert(
      {
        userId,
        secretCiphertext,
        confirmedAt: null,
        lastUsedStep: null,
        consecutiveFailures: 0,
        lockedUntil: null,
      },
      ['userId'],
    );
  }

  /** Records an accepted code: its step is spent, failures and lock cleared; `confirmedAt` activates a pending factor. */
  async recordAcceptedCode(manager: EntityManager, userId: string, step: number, confirmedAt?: Date): Promise<void> {
    await manager.update(UserTotpEntity, { userId }, {
      lastUsedStep: step,
      consecutiveFailures: 0,
      lockedUntil: null,
      ...(confirmedAt ? { confirmedAt } : {}),
    });
  }

  /** Records a refused code: the new count of consecutive failures, and the lock (or none). */
  async recordRefusedCode(manager: EntityManager, userId: string, consecutiveFailures: number, lockedUntil: Date | null): Promise<void> {
    await manager.update(UserTotpEntity, { userId }, { consecutiveFailures, lockedUntil });
  }
}
