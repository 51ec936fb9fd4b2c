import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditService } from '@gateway/domain/audit';
import { type Developer, DevelopersService } from '@gateway/domain/developers';
import { DomainError } from '@gateway/platform';
import type { PortalTokenEntity } from './entities/portal-token.entity';
import { TeamService } from './team.service';
import { UsersService } from './users.service';

/** What a platform administrator does to open an account: the developer plus its owner's invitation. */
@Injectable()
export class DeveloperProvisioningService {
  constructor(
    private readonly developers: DevelopersService,
    private readonly team: TeamService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Creates the developer account and e-mails its owner an invitation (the owner sets a password
   * when accepting; accepting also verifies the account's e-mail).
   * @throws conflict (developer or portal user with that e-mail exists)
   */
  async provision(input: { email: string; name: string }, adminUserId: string, actor: AuditActor): Promise<{ developer: Developer; invitation: PortalTokenEntity }> {
    if (await this.users.findByEmail(input.email)) {
      throw new DomainError('conflict', `${input.email.trim()} already has a portal account.`);
    }
    const developer = await this.developers.create({ email: input.email, name: input.name }, this.audit.developerRecorder(actor));
    const invitation = await this.team.invite({ userId: adminUserId, accountRole: null }, developer.id, developer.email, 'owner');
    return { developer, invitation };
  }
}
