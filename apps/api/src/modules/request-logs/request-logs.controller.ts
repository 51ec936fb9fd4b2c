import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, MAX_FEED_WAIT_SECONDS, RequestLogResponse, RequestLogsFeedQuery } from '@gateway/contracts';
import { RequestLogFeedService } from '@gateway/domain/request-logs';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ClientGone } from '../../http/client-gone.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

/** This route's own pattern, as the request log stores it: a tail does not show its own reads. */
const OWN_ROUTE = '/api/v1/request-logs';

@ApiTags('Request logs')
@Controller('request-logs')
export class RequestLogsController {
  // RequestLogsModule is registered once, globally, by the app root: inject its service directly.
  constructor(private readonly feed: RequestLogFeedService) {}

  @Get()
  @Authenticated({ scope: 'request_logs:read' })
  @ApiOperation({
    summary: 'Read the request log (tail, long-poll)',
    description:
      "The account's logged API requests in the key's mode (bodies redacted, as the portal shows them), in the order they were written, after `after`: `now` or the previous answer's `meta.next_cursor`; " +
      `omitted, from the oldest entry of the last hour (older entries: the portal's search). With \`wait\` (1–${MAX_FEED_WAIT_SECONDS} seconds) the request waits until an entry exists after \`after\`, or answers an empty page when the wait is over. ` +
      'Entries are written in batches about a second after their request was answered, so they arrive that much later. ' +
      'Filters: `status`, `status_class` (2xx…5xx), `path` (substring). Reads of this route are left out.',
  })
  @ApiContract({ feed: RequestLogResponse, errors: ['validation_error'] })
  async read(@Tenant() ctx: DeveloperContext, @Query() query: RequestLogsFeedQuery, @ClientGone() clientGone: AbortSignal): Promise<ListResponse<RequestLogResponse>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await this.feed.read(ctx, {
      after: query.after,
      limit,
      waitSeconds: query.wait ?? 0,
      status: query.status,
      statusClass: query.status_class,
      pathContains: query.path,
      excludeRoute: OWN_ROUTE,
      signal: clientGone,
    });
    return new ListResponse(page.entries, { next_cursor: page.nextCursor, has_more: page.hasMore, limit });
  }
}
