import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { MAX_FEED_WAIT_SECONDS, MAX_PAGE_SIZE } from '@gateway/contracts';
import { decodeFeedPosition, type DeveloperContext, encodeFeedPosition, type FeedPage, type FeedPosition, FEED_START, longPoll, validationError } from '@gateway/platform';
import { RequestLogFeedRepository, type RequestLogFeedRow } from './request-log-feed.repository';
import { type RequestLogFilter, type RequestLogView, statusRange, toView } from './request-logs.service';

/**
 * How far back the feed reaches (by the request's arrival). An entry written later than this after
 * its request arrived — the database refused writes for that long and the writer held it — is not
 * in the feed (the portal's search has it); in exchange a read touches only the newest partitions.
 */
export const REQUEST_LOG_FEED_WINDOW_SECONDS = 3600;

/**
 * How often a waiting read looks again. Entries reach the table in batches (every
 * REQUEST_LOG_FLUSH_INTERVAL_MS, 1 s, per API instance), so a NOTIFY would save little: one
 * index probe per waiter per interval is the whole cost.
 */
const RECHECK_MS = 500;

export interface RequestLogFeedRequest extends Pick<RequestLogFilter, 'status' | 'statusClass' | 'pathContains'> {
  /** `now`, a cursor the feed returned, or undefined (the oldest entry within the window). */
  after?: string;
  limit: number;
  waitSeconds: number;
  /** A route pattern whose requests stay out (the feed's own). */
  excludeRoute?: string;
  signal?: AbortSignal;
}

export interface RequestLogFeedPage {
  entries: RequestLogView[];
  nextCursor: string;
  hasMore: boolean;
  limit: number;
}

/**
 * The request-log feed (the CLI's `logs tail`): an account's entries in one mode in the order
 * they were written, after a position, with a long-poll. Entries are written about a second
 * after their request was answered (the writer batches), so a tail shows them that much later.
 */
@Injectable()
export class RequestLogFeedService implements BeforeApplicationShutdown {
  private readonly stopping = new AbortController();

  constructor(private readonly repository: RequestLogFeedRepository) {}

  /**
   * @throws validation_error for a limit, wait, status or status class out of range, or an `after`
   *   that is neither `now` nor a cursor of this feed
   */
  async read(ctx: DeveloperContext, request: RequestLogFeedRequest): Promise<RequestLogFeedPage> {
    const { limit, waitSeconds } = request;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw validationError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > MAX_FEED_WAIT_SECONDS) {
      throw validationError('wait', `must be a whole number of seconds from 0 to ${MAX_FEED_WAIT_SECONDS}`);
    }
    const range = statusRange(request);
    const query = {
      developerId: ctx.developerId,
      mode: ctx.mode,
      statusFrom: range?.from,
      statusTo: range?.to,
      pathContains: request.pathContains,
      excludeRoute: request.excludeRoute,
      windowSeconds: REQUEST_LOG_FEED_WINDOW_SECONDS,
    };
    let position: FeedPosition = request.after === undefined ? FEED_START : request.after === 'now' ? await this.repository.now(query) : decodeFeedPosition(request.after, 'after');
    let page: FeedPage<RequestLogFeedRow> = { rows: [], next: position, hasMore: false };
    await longPoll({
      read: async () => {
        page = await this.repository.read(query, position, limit);
        position = page.next;
        return page;
      },
      hasNews: (read) => read.rows.length > 0,
      waitMs: this.stopping.signal.aborted ? 0 : waitSeconds * 1000,
      recheckMs: RECHECK_MS,
      signals: [request.signal, this.stopping.signal],
    });
    return { entries: page.rows.map(toView), nextCursor: encodeFeedPosition(page.next), hasMore: page.hasMore, limit };
  }

  /** Waiting reads answer at once, so the HTTP server can close. */
  beforeApplicationShutdown(): void {
    this.stopping.abort();
  }
}
