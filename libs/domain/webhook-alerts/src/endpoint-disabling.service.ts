import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DevelopersService } from '@gateway/domain/developers';
import { MailerService, TeamService } from '@gateway/domain/identity';
import { type DisabledEndpoint, WebhookRecoveryService } from '@gateway/domain/webhooks';
import { APP_CONFIG, type AppConfig, inTransaction } from '@gateway/platform';
import type { DataSource } from 'typeorm';
import { endpointDisabledMail } from './endpoint-disabled-mail';

/**
 * Disables the webhook endpoints whose deliveries kept failing and tells each account's owners, in
 * one transaction: the endpoint's status, its `webhook_endpoint.disabled` event and the owners'
 * e-mails commit together or not at all. It composes two capabilities that may not import each
 * other (webhooks, the core; identity, a leaf, which owns mail and the account's people), so it
 * sits above both.
 */
@Injectable()
export class EndpointDisablingService {
  private readonly logger = new Logger('EndpointDisabling');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recovery: WebhookRecoveryService,
    private readonly team: TeamService,
    private readonly developers: DevelopersService,
    private readonly mailer: MailerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * One batch: of at most `limit` endpoints that qualify, those this call disabled (not those a
   * concurrent scan disabled first), their owners mailed. A short batch ends the scheduler's run;
   * whatever is left, the next run takes.
   */
  disableFailingEndpoints(limit: number): Promise<DisabledEndpoint[]> {
    return inTransaction(this.dataSource, async (m) => {
      const disabled = await this.recovery.disableFailing(m, limit);
      for (const endpoint of disabled) {
        // Read in the transaction, on its connection. Asking the pool for a second one while this one
        // holds the endpoints' locks fails when every connection is held that way: none comes free,
        // and the scan gives up after DATABASE_POOL_TIMEOUT_MS.
        const developer = await this.developers.get(endpoint.developerId, m);
        const members = await this.team.listMembers(endpoint.developerId, m);
        const owners = members.filter((member) => member.role === 'owner');
        // An account provisioned without portal people has nobody to mail: the event and the endpoint's status still say it.
        if (owners.length === 0) this.logger.warn(`Webhook endpoint ${endpoint.reference} disabled; its account has no owner to tell`);
        for (const owner of owners) await this.mailer.send(endpointDisabledMail(owner.email, developer.name, endpoint, this.config.portal.baseUrl), m);
      }
      return disabled;
    });
  }
}
