import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeepPartial, type EntityManager, QueryFailedError, Repository } from 'typeorm';
import { UserEntity } from './entities/user.entity';

/** Portal user rows (table `users`). E-mails arrive here already normalised by the service. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** Inserts a user and returns it with its generated id and timestamps. @throws QueryFailedError — see isUniqueViolation */
  insert(user: DeepPartial<UserEntity>, manager: EntityManager = this.users.manager): Promise<UserEntity> {
    return manager.save(manager.create(UserEntity, user));
  }

  /** The user with this (normalised) e-mail, or null. */
  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email });
  }

  /** The user, or null when there is none (a malformed id is the caller's to refuse first). */
  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** @throws EntityNotFoundError when the user is gone */
  findByIdOrFail(id: string, manager: EntityManager = this.users.manager): Promise<UserEntity> {
    return manager.findOneByOrFail(UserEntity, { id });
  }

  /** Sets the verification time, unless the e-mail was verified already (the first time stays). */
  async markEmailVerified(id: string, at: Date): Promise<void> {
    await this.users
      .createQueryBuilder()
      .update()
      .set({ emailVerifiedAt: at })
      .where('id = :userId AND email_verified_at IS NULL', { userId: id })
      .execute();
  }

  /** Stores a new password hash and when it changed. */
  async setPasswordHash(id: string, passwordHash: string, changedAt: Date): Promise<void> {
    await this.users.update({ id }, { passwordHash, passwordChangedAt: changedAt });
  }

  /** Swaps the password hash for another of the same password, only while it is still `current`. */
  async replacePasswordHash(id: string, current: string, replacement: string): Promise<void> {
    await this.users.update({ id, passwordHash: current }, { passwordHash: replacement });
  }

  /** Deletes the user; ON DELETE CASCADE takes their membership, TOTP, sessions and link tokens along. */
  async delete(id: string, manager: EntityManager = this.users.manager): Promise<void> {
    await manager.delete(UserEntity, { id });
  }
}

/** Whether a write broke a unique constraint (for users: the e-mail is taken, perhaps by a concurrent request). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505';
}
