import { Get, Query, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DevMailboxQuery, DevMailResponse } from '@gateway/contracts';
import { parseIp } from '@gateway/domain/api-keys';
import { MailerService } from '@gateway/domain/identity';
import { DomainError } from '@gateway/platform';
import type { FastifyRequest } from 'fastify';
import { ApiContract } from '../../http/openapi.decorators';
import { NoStore } from '../../http/no-store.decorator';
import { PortalAccess, PortalController } from './auth/portal-access';
import { toDevMail } from './portal.mapper';

/**
 * Development only: the e-mails kept instead of sent when SMTP_URL is not set, so invitations and
 * reset links can be followed locally. Answers 404 when NODE_ENV=production, and to any client
 * not on this machine: the kept mails hold password-reset links, so a development instance
 * reachable from elsewhere must not hand them out.
 */
@PortalController('dev/mailbox')
export class PortalDevMailboxController {
  constructor(private readonly mailer: MailerService) {}

  @Get()
  @NoStore()
  @PortalAccess({ session: 'none' })
  @ApiOperation({ summary: 'Development mailbox (not in production)', description: 'The 50 newest kept e-mails, optionally for one recipient (`?to=`).' })
  @ApiContract({ response: [DevMailResponse], errors: ['not_found', 'validation_error'] })
  async list(@Req() request: FastifyRequest, @Query() query: DevMailboxQuery): Promise<DevMailResponse[]> {
    if (!isLoopback(request.clientIp ?? request.ip)) throw new DomainError('not_found', 'No such endpoint.');
    return (await this.mailer.devMailbox(query.to)).map(toDevMail);
  }
}

function isLoopback(ip: string): boolean {
  return parseIp(ip)?.range() === 'loopback';
}
