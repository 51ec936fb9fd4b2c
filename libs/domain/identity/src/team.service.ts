import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DevelopersService } from '@gateway/domain/developers';
import { APP_CONFIG, type AppConfig, Clock, DomainError, inTransaction } from '@gateway/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountRecoveryService } from './account-recovery.service';
import type { MembershipEntity } from './entities/membership.entity';
import type { PortalTokenEntity } from './entities/portal-token.entity';
import type { UserEntity } from './entities/user.entity';
import { invitationMail } from './mail/identity-mails';
import { MailerService } from './mail/mailer.service';
import { MembershipsRepository } from './memberships.repository';
import { assertPasswordPolicy, PasswordHasher } from './password-hasher';
import { PortalTokensService } from './portal-tokens.service';
import { type AccountRole, accountRoleAllows } from './roles';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';
import { isUuid, normaliseEmail, uniqueViolationToConflict, UsersService } from './users.service';

/** The member of an account acting on its team. */
export interface TeamActor {
  userId: string;
  developerId: string;
  role: AccountRole;
}

/** Who sends an invitation: a member (by their role) or platform staff provisioning (`accountRole` null). */
export interface Inviter {
  userId: string;
  accountRole: AccountRole | null;
}

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  role: AccountRole;
  joinedAt: Date;
}

export interface AcceptedInvitation {
  userId: string;
  developerId: string;
  role: AccountRole;
}

/**
 * Members of a developer account: invitations by e-mail, roles, removal. Anything that makes,
 * changes or removes an owner needs an owner, and the last owner can be neither demoted nor
 * removed. Members of another account are answered as `user_not_found`.
 */
@Injectable()
export class TeamService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly memberships: MembershipsRepository,
    private readonly usersRepository: UsersRepository,
    private readonly users: UsersService,
    private readonly tokens: PortalTokensService,
    private readonly mailer: MailerService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly developers: DevelopersService,
    private readonly recovery: AccountRecoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The account's people, oldest member first; in `manager`'s transaction when given. */
  async listMembers(developerId: string, manager?: EntityManager): Promise<TeamMember[]> {
    const rows = await this.memberships.listWithUsers(developerId, manager);
    return rows.map((m) => toMember(m, m.user));
  }

  /**
   * E-mails an invitation link; the invitee chooses a name and password when accepting.
   * @throws insufficient_role (only owners invite owners), conflict (the address already has a portal account)
   */
  async invite(inviter: Inviter, developerId: string, email: string, role: AccountRole): Promise<PortalTokenEntity> {
    if (inviter.accountRole && role === 'owner' && !accountRoleAllows(inviter.accountRole, 'ownership:transfer')) {
      throw new DomainError('insufficient_role', 'Only an owner can invite another owner.');
    }
    const address = normaliseEmail(email);
    if (await this.users.findByEmail(address)) throw new DomainError('conflict', `${address} already has a portal account.`);
    const developer = await this.developers.get(developerId);
    const { token, record } = await this.tokens.issue({ purpose: 'invitation', email: address, developerId, role, createdBy: inviter.userId });
    await this.mailer.send(invitationMail(address, this.config.portal.baseUrl, token, developer.name, role));
    return record;
  }

  /**
   * Creates the invitee's user with the chosen password and membership. Accepting proves the
   * mailbox, so the e-mail is verified.
   * @throws validation_error (password policy), invalid_token, conflict (address taken meanwhile)
   */
  async acceptInvitation(token: string, name: string, password: string): Promise<AcceptedInvitation> {
    assertPasswordPolicy(password);
    const passwordHash = await this.hasher.hash(password);
    const accepted = await inTransaction(this.dataSource, async (m) => {
      const invitation = await this.tokens.consume('invitation', token, m);
      const now = this.clock.now();
      let user: UserEntity;
      try {
        user = await this.usersRepository.insert({ email: invitation.email, name: name.trim(), passwordHash, emailVerifiedAt: now, passwordChangedAt: now }, m);
      } catch (error) {
        throw uniqueViolationToConflict(error, invitation.email);
      }
      const developerId = invitation.developerId as string;
      const role = invitation.role as AccountRole;
      await this.memberships.insert({ userId: user.id, developerId, role }, m);
      return { userId: user.id, developerId, role, email: user.email };
    });
    await this.recovery.verifyAccountEmailOf(accepted.userId, accepted.email);
    return { userId: accepted.userId, developerId: accepted.developerId, role: accepted.role };
  }

  /** @throws user_not_found, insufficient_role, last_owner */
  async changeRole(actor: TeamActor, userId: string, role: AccountRole): Promise<TeamMember> {
    await inTransaction(this.dataSource, async (m) => {
      const { target, owners } = await this.lockTeam(m, actor.developerId, userId);
      if ((target.role === 'owner' || role === 'owner') && target.role !== role) this.assertCanTouchOwners(actor);
      if (target.role === 'owner' && role !== 'owner' && owners === 1) {
        throw new DomainError('last_owner', 'An account needs at least one owner: make someone else owner first.');
      }
      await this.memberships.setRole(target.userId, role, m);
    });
    return (await this.listMembers(actor.developerId)).find((member) => member.userId === userId) as TeamMember;
  }

  /**
   * Removes a member: their user is deleted (platform staff only lose the membership) and every
   * session of theirs ends at once.
   * @throws user_not_found, insufficient_role, last_owner
   */
  async removeMember(actor: TeamActor, userId: string): Promise<void> {
    await inTransaction(this.dataSource, async (m) => {
      const { target, owners } = await this.lockTeam(m, actor.developerId, userId);
      if (target.role === 'owner') {
        this.assertCanTouchOwners(actor);
        if (owners === 1) throw new DomainError('last_owner', 'The last owner cannot be removed.');
      }
      const user = await this.usersRepository.findByIdOrFail(userId, m);
      if (user.platformRole) await this.memberships.deleteOfUser(userId, m);
      else await this.usersRepository.delete(userId, m);
    });
    await this.sessions.endAllForUser(userId);
  }

  /** Locks the account's memberships (so owner counts cannot race) and finds the target. */
  private async lockTeam(m: EntityManager, developerId: string, userId: string): Promise<{ target: MembershipEntity; owners: number }> {
    const members = await this.memberships.lockOfAccount(m, developerId);
    const target = isUuid(userId) ? members.find((member) => member.userId === userId) : undefined;
    if (!target) throw new DomainError('user_not_found', 'No such team member.');
    return { target, owners: members.filter((member) => member.role === 'owner').length };
  }

  private assertCanTouchOwners(actor: TeamActor): void {
    if (!accountRoleAllows(actor.role, 'ownership:transfer')) {
      throw new DomainError('insufficient_role', 'Only an owner can make, change or remove an owner.');
    }
  }
}

function toMember(membership: MembershipEntity, user: UserEntity): TeamMember {
  return { userId: user.id, email: user.email, name: user.name, role: membership.role, joinedAt: membership.createdAt };
}
