import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, RequestLogResponse, RequestLogsQuery } from '@gateway/contracts';
import { RequestLogsService } from '@gateway/domain/request-logs';
import { ApiContract } from '../../http/openapi.decorators';
import { ListResponse } from '../../http/list-response';
import { accountContext, PortalAccess, PortalController, PortalSession, type PortalSessionContext } from './auth/portal-access';

/** The account's merchant API requests in the session's mode (bodies already redacted). */
@PortalController('request-logs')
export class PortalRequestLogsController {
  // RequestLogsModule is registered once, globally, by the app root: inject its service directly.
  constructor(private readonly logs: RequestLogsService) {}

  @Get()
  @PortalAccess({ session: 'active', permission: 'account:read' })
  @ApiOperation({
    summary: 'Search request logs',
    description: 'Newest first, cursor-paginated. Filters: `status`, `status_class` (2xx…5xx), `path` (substring), `request_id`, `from`/`to` (ISO 8601, inclusive).',
  })
  @ApiContract({ list: RequestLogResponse, errors: ['validation_error', 'authentication_failed', 'insufficient_role'] })
  async search(@PortalSession() session: PortalSessionContext, @Query() query: RequestLogsQuery): Promise<ListResponse<RequestLogResponse>> {
    const ctx = accountContext(session);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await this.logs.search({
      developerId: ctx.developerId,
      mode: ctx.mode,
      status: query.status,
      statusClass: query.status_class,
      pathContains: query.path,
      requestId: query.request_id,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      limit,
      cursor: query.cursor,
    });
    return new ListResponse(page.items, { next_cursor: page.nextCursor, has_more: page.hasMore, limit });
  }
}
