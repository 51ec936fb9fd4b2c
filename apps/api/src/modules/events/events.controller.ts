import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, EventResponse, EventsFeedQuery, MAX_FEED_WAIT_SECONDS } from '@gateway/contracts';
import { EventsFeedService } from '@gateway/domain/webhooks';
import type { DeveloperContext } from '@gateway/platform';
import { Authenticated, Tenant } from '../../http/auth/authenticated.decorator';
import { ClientGone } from '../../http/client-gone.decorator';
import { ListResponse } from '../../http/list-response';
import { ApiContract } from '../../http/openapi.decorators';

@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(private readonly feed: EventsFeedService) {}

  @Get()
  @Authenticated({ scope: 'events:read' })
  @ApiOperation({
    summary: 'Read the event feed (long-poll)',
    description:
      "The account's events in the key's mode, oldest first, after `after`: `now` (only events from now on), an event id (`evt_…`) or the previous answer's `meta.next_cursor`; omitted, from the first event the feed holds. " +
      `With \`wait\` (1–${MAX_FEED_WAIT_SECONDS} seconds) the request waits until at least one event exists after \`after\` and answers at once, or answers an empty page when the wait is over; ` +
      'either way `meta.next_cursor` continues where this answer ended. `type` keeps only the named events (comma-separated). ' +
      'Each event is what its webhook deliveries carry (same id, name, time and object), whether or not an endpoint subscribes to it. ' +
      'An event becomes readable once its transaction, and every transaction that began writing before it, has committed (usually milliseconds). ' +
      'Events written before the feed existed (the upgrade that added it) are not in it.',
  })
  @ApiContract({ feed: EventResponse, errors: ['validation_error'] })
  async read(@Tenant() ctx: DeveloperContext, @Query() query: EventsFeedQuery, @ClientGone() clientGone: AbortSignal): Promise<ListResponse<EventResponse>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await this.feed.read(ctx, { after: query.after, limit, names: query.type?.split(','), waitSeconds: query.wait ?? 0, signal: clientGone });
    return new ListResponse(page.events, { next_cursor: page.nextCursor, has_more: page.hasMore, limit });
  }
}
