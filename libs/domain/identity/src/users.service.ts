import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '@gateway/platform';
import type { MembershipEntity } from './entities/membership.entity';
import type { UserEntity } from './entities/user.entity';
import { MembershipsRepository } from './memberships.repository';
import { PasswordHasher } from './password-hasher';
import type { PortalActor } from './portal-actor';
import type { PlatformRole } from './roles';
import { isUniqueViolation, UsersRepository } from './users.repository';

export interface NewPlatformUser {
  email: string;
  name: string;
  password: string;
  platformRole: PlatformRole;
}

/** Portal users: lookup, the actor view the guards use, and platform staff provisioning. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates platform staff (the first administrator comes from the operator CLI). Their e-mail
   * counts as verified: an operator vouches for it.
   * @throws validation_error (password policy), conflict (e-mail taken)
   */
  async createPlatformUser(input: NewPlatformUser): Promise<UserEntity> {
    const passwordHash = await this.hasher.hash(input.password);
    const now = this.clock.now();
    try {
      return await this.users.insert({
        email: normaliseEmail(input.email),
        name: input.name.trim(),
        passwordHash,
        platformRole: input.platformRole,
        emailVerifiedAt: now,
        passwordChangedAt: now,
      });
    } catch (error) {
      throw uniqueViolationToConflict(error, input.email);
    }
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(normaliseEmail(email));
  }

  /** @throws user_not_found */
  async get(userId: string): Promise<UserEntity> {
    const user = isUuid(userId) ? await this.users.findById(userId) : null;
    if (!user) throw new DomainError('user_not_found', 'No such user.');
    return user;
  }

  /** The actor behind a session; null once the user is gone. */
  async actor(userId: string): Promise<PortalActor | null> {
    const user = await this.users.findById(userId);
    if (!user) return null;
    const membership = await this.memberships.findByUserId(userId);
    return toActor(user, membership);
  }

  async markEmailVerified(userId: string): Promise<void> {
    await this.users.markEmailVerified(userId, this.clock.now());
  }

  /**
   * The same password's hash at another cost, unless the password changed meanwhile (its hash is no
   * longer `current`). Sessions stay: the password did not change.
   */
  async replacePasswordHash(userId: string, current: string, replacement: string): Promise<void> {
    await this.users.replacePasswordHash(userId, current, replacement);
  }

  /** @throws validation_error (password policy) */
  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.users.setPasswordHash(userId, passwordHash, this.clock.now());
  }
}

export function toActor(user: UserEntity, membership: MembershipEntity | null): PortalActor {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerifiedAt !== null,
    platformRole: user.platformRole,
    account: membership ? { developerId: membership.developerId, role: membership.role } : null,
  };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function uniqueViolationToConflict(error: unknown, email: string): unknown {
  if (isUniqueViolation(error)) {
    return new DomainError('conflict', `${email.trim()} already has a portal account.`);
  }
  return error;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
