import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequestTraceResponse } from '@gateway/contracts';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ApiContract } from '../../http/openapi.decorators';
import { RequestTraceService } from './request-trace.service';

export const REQUEST_TRACE_DESCRIPTION =
  'What one request did, by its `X-Request-Id` (`req_…`): `request`, its request log entry (bodies redacted); `ledger_entries`, the wallet entries it posted; ' +
  '`events`, the events it emitted (oldest first, at most 100; `events_truncated` when there were more), each with its delivery to every endpoint and every attempt. ' +
  'Request logs are written in batches about a second after the answer: until then (and after the 90-day purge) `request` is null while the other parts show; ' +
  'a request that left nothing in this account and mode — another account’s, the other mode’s, unknown, or not logged yet and with nothing posted or emitted — is 404 `request_not_found`.';

@ApiTags('Requests')
@Controller('requests')
export class RequestsController {
  constructor(private readonly traces: RequestTraceService) {}

  @Get(':request_id')
  @Authenticated({ scope: 'requests:read' })
  @ApiOperation({ summary: "A request's trace", description: REQUEST_TRACE_DESCRIPTION })
  @ApiContract({ response: RequestTraceResponse, errors: ['validation_error', 'request_not_found'] })
  async trace(@Tenant() ctx: DeveloperContext, @Param('request_id') requestId: string): Promise<RequestTraceResponse> {
    return this.traces.trace(ctx, requestId);
  }
}
