import { Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequestTraceResponse } from '@gateway/contracts';
import { ApiContract } from '../../http/openapi.decorators';
import { REQUEST_TRACE_DESCRIPTION } from '../requests/requests.controller';
import { RequestTraceService } from '../requests/request-trace.service';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/** A request's trace in the session's mode, as `GET /api/v1/requests/{request_id}` gives it to a key. */
@PortalController('requests')
export class PortalRequestsController {
  constructor(private readonly traces: RequestTraceService) {}

  @Get(':request_id')
  // Whoever may read the request log may read what its requests did (every role).
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({ summary: "A request's trace (this mode)", description: `As \`GET /api/v1/requests/{request_id}\`. ${REQUEST_TRACE_DESCRIPTION}` })
  @ApiContract({ response: RequestTraceResponse, errors: ['validation_error', 'request_not_found', 'authentication_failed', 'insufficient_role'] })
  async trace(@PortalSession() session: PortalSessionContext, @Param('request_id') requestId: string): Promise<RequestTraceResponse> {
    return this.traces.trace(accountContext(session), requestId);
  }
}
