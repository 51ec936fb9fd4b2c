import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DevMailboxQuery, type DevMailResponse } from '@gateway/contracts';
import { MailerService } from '@gateway/domain/identity';
import { ApiContract } from '../../http/openapi.decorators';
import { PortalAccess, PortalController } from './auth/portal-access';
import { toDevMail } from './portal.mapper';

/**
 * Development only: the e-mails kept instead of sent when SMTP_URL is not set, so invitations and
 * reset links can be followed locally. Answers 404 when NODE_ENV=production.
 */
@PortalController('dev/mailbox')
export class PortalDevMailboxController {
  constructor(private readonly mailer: MailerService) {}

  @Get()
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Development mailbox (not in production)', description: 'The 50 newest kept e-mails, optionally for one recipient (`?to=`).' })
  @ApiContract({ errors: ['not_found', 'validation_error'] })
  async list(@Query() query: DevMailboxQuery): Promise<DevMailResponse[]> {
    return (await this.mailer.devMailbox(query.to)).map(toDevMail);
  }
}
