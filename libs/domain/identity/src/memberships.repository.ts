import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { MembershipEntity } from './entities/membership.entity';
import { UserEntity } from './entities/user.entity';
import type { AccountRole } from './roles';

/** A membership with its user loaded alongside. */
export type MembershipWithUser = MembershipEntity & { user: UserEntity };

/** Memberships of developer accounts (table `memberships`, one per user: the user id is the key). */
@Injectable()
export class MembershipsRepository {
  constructor(@InjectRepository(MembershipEntity) private readonly memberships: Repository<MembershipEntity>) {}

  /** The user's membership, or null (platform staff without an account). */
  findByUserId(userId: string): Promise<MembershipEntity | null> {
    return this.memberships.findOneBy({ userId });
  }

  /** An account's memberships with their users, oldest member first. */
  async listWithUsers(developerId: string, manager: EntityManager = this.memberships.manager): Promise<MembershipWithUser[]> {
    const rows = await manager
      .createQueryBuilder(MembershipEntity, 'm')
      .innerJoinAndMapOne('m.user', UserEntity, 'u', 'u.id = m.user_id')
      .where('m.developer_id = :developerId', { developerId })
      .orderBy('m.created_at', 'ASC')
      .getMany();
    return rows as MembershipWithUser[];
  }

  /**
   * An account's memberships, each row locked FOR UPDATE until the caller's transaction ends (so
   * owner counts cannot race). Unordered.
   */
  lockOfAccount(manager: EntityManager, developerId: string): Promise<MembershipEntity[]> {
    return manager
      .getRepository(MembershipEntity)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.developer_id = :developerId', { developerId })
      .getMany();
  }

  /** Adds the user to the account with this role. */
  async insert(membership: { userId: string; developerId: string; role: AccountRole }, manager: EntityManager = this.memberships.manager): Promise<void> {
    await manager.insert(MembershipEntity, membership);
  }

  /** Changes the member's role. */
  async setRole(userId: string, role: AccountRole, manager: EntityManager = this.memberships.manager): Promise<void> {
    await manager.update(MembershipEntity, { userId }, { role });
  }

  /** Removes the user's membership (the user stays). */
  async deleteOfUser(userId: string, manager: EntityManager = this.memberships.manager): Promise<void> {
    await manager.delete(MembershipEntity, { userId });
  }
}
