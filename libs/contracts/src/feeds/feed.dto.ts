import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { Mode } from '../common';
import { MAX_PAGE_SIZE } from '../pagination';
import { STATUS_CLASSES } from '../portal/request-logs.dto';

/** The longest `?wait=` a feed read may hold the request open, in seconds. */
export const MAX_FEED_WAIT_SECONDS = 25;

/**
 * `?after=&limit=&wait=` of a feed (GET /events, GET /request-logs): oldest first after `after`,
 * and with `wait`, a long-poll that answers as soon as something newer exists.
 */
export class FeedQueryDto {
  /**
   * Where to continue: `meta.next_cursor` of the previous answer, or `now` (only what is written
   * from now on). Omitted: from the oldest entry the feed holds. The events feed also takes an
   * event id (`evt_…`): the events after that one.
   * @example "now"
   */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;

  /** Most entries per answer; 20 when omitted. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  /**
   * Seconds to wait for an entry when none is there yet (0–25; 0, the default, answers at once).
   * The answer comes as soon as one is written; after `wait` seconds it is an empty page.
   * @example 25
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'wait must be a whole number of seconds' })
  @Min(0)
  @Max(MAX_FEED_WAIT_SECONDS, { message: `wait must not be greater than ${MAX_FEED_WAIT_SECONDS} (seconds)` })
  wait?: number;
}

/** `GET /api/v1/events`. */
export class EventsFeedQuery extends FeedQueryDto {
  /**
   * Only these events: names separated by commas (the event catalog, and `webhook.test`).
   * @example "payment.success,refund.completed"
   */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @Matches(/^[a-z_.]+(,[a-z_.]+)*$/, { message: 'type must be event names separated by commas' })
  type?: string;
}

/** `GET /api/v1/request-logs`. */
export class RequestLogsFeedQuery extends FeedQueryDto {
  /** Only this status code. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;

  @IsOptional()
  @IsIn(STATUS_CLASSES)
  status_class?: (typeof STATUS_CLASSES)[number];

  /** Case-insensitive part of the path, e.g. `customers`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  path?: string;
}

/**
 * An event as it was recorded: the same id, name, time and object its webhook deliveries carry
 * (`data` is the v2 payload's `data`; a v1 payload is `data`'s fields with `event`, `id`,
 * `created_at` and `mode` added).
 */
export class EventResponse {
  /** `evt_…`, also sent in deliveries as `X-Gateway-Event-Id`. */
  id: string;
  /** The event's name, e.g. `payment.success`. */
  event: string;
  created_at: string;
  mode: Mode;
  /** The object the event is about, as the API returned it when the event happened. */
  data: Record<string, unknown>;
}
