import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_NAMES, type EventResponse, MAX_FEED_WAIT_SECONDS, MAX_PAGE_SIZE, TEST_EVENT_NAME } from '@gateway/contracts';
import {
  decodeFeedPosition,
  type DeveloperContext,
  encodeFeedPosition,
  type FeedPage,
  type FeedPosition,
  FEED_START,
  longPoll,
  NotificationFanOut,
  validationError,
} from '@gateway/platform';
import { DataSource } from 'typeorm';
import { EventsFeedRepository, type FeedEventRow } from './events-feed.repository';

/** The channel the events trigger NOTIFYs (migration AddEventFeed), payload `<developer_id>:<mode>`. */
export const EVENT_FEED_CHANNEL = 'gateway_events';

/** A lease outlives the longest wait, so one write covers several consecutive long-polls. */
const LEASE_SECONDS = 60;
/** Renewed once less than this is left of it beyond the wait about to start. */
const LEASE_MARGIN_MS = 10_000;
/** Re-checks while notifications arrive (a safety net), and while they cannot (the listener is down). */
const RECHECK_LISTENING_MS = 5_000;
const RECHECK_UNHEARD_MS = 1_000;
/** Past this many accounts, leases that have ended are forgotten (they would only be renewed). */
const MAX_REMEMBERED_LEASES = 1_000;

const FILTERABLE_NAMES: ReadonlySet<string> = new Set([...EVENT_NAMES, TEST_EVENT_NAME]);

export interface EventFeedRequest {
  /** `now`, an event id (`evt_…`), a cursor the feed returned, or undefined (from the start). */
  after?: string;
  limit: number;
  /** Only these event names. */
  names?: string[];
  /** 0 = answer at once; otherwise wait up to this many seconds for an event. */
  waitSeconds: number;
  /** The client went away: stop waiting. */
  signal?: AbortSignal;
}

export interface EventFeedPage {
  events: EventResponse[];
  /** Always set: where the next read continues. */
  nextCursor: string;
  hasMore: boolean;
  limit: number;
}

/**
 * The event feed: an account's events in commit order, read after a position, with a long-poll
 * that answers as soon as an event exists after it. Each API process holds ONE listening
 * connection (opened on the first wait) whose notifications wake the waiters of the account they
 * name; every instance listens for itself, so it does not matter which one wrote the event.
 */
@Injectable()
export class EventsFeedService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(EventsFeedService.name);
  /** Aborted when the process stops: every wait answers at once, so the HTTP server can close. */
  private readonly stopping = new AbortController();
  /** Lease ends per account this process has written (Date.now() ms). */
  private readonly leases = new Map<string, number>();
  private fanOut: NotificationFanOut | undefined;
  private pausing = 0;

  constructor(
    private readonly repository: EventsFeedRepository,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The account's events after `after`, oldest first; with a wait, answered once at least one
   * exists, or empty when the wait is over.
   * @throws validation_error for a limit, wait or event name out of range, or an `after` that is
   *   neither `now`, one of the account's events nor a cursor of this feed
   */
  async read(ctx: DeveloperContext, request: EventFeedRequest): Promise<EventFeedPage> {
    const { limit, waitSeconds } = request;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw validationError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > MAX_FEED_WAIT_SECONDS) {
      throw validationError('wait', `must be a whole number of seconds from 0 to ${MAX_FEED_WAIT_SECONDS}`);
    }
    const unknown = request.names?.find((name) => !FILTERABLE_NAMES.has(name));
    if (unknown !== undefined) throw validationError('type', `${unknown} is not an event name`);

    let position = await this.startOf(ctx, request.after);
    const waitMs = this.stopping.signal.aborted ? 0 : waitSeconds * 1000;
    const key = `${ctx.developerId}:${ctx.mode}`;
    const freshLease = waitMs > 0 && (await this.holdLease(ctx, key, waitMs));
    let page: FeedPage<FeedEventRow> = { rows: [], next: position, hasMore: false };
    await longPoll({
      read: async () => {
        page = await this.repository.read(ctx, position, limit, request.names);
        position = page.next;
        return page;
      },
      hasNews: (read) => read.rows.length > 0,
      waitMs,
      recheckMs: this.fanOut?.isListening ? RECHECK_LISTENING_MS : RECHECK_UNHEARD_MS,
      arm: waitMs > 0 ? () => this.listener().arm(key) : undefined,
      signals: [request.signal, this.stopping.signal],
      startQuick: freshLease,
      onPause: (pausing) => (this.pausing += pausing ? 1 : -1),
    });
    return { events: page.rows.map(toEventResponse), nextCursor: encodeFeedPosition(page.next), hasMore: page.hasMore, limit };
  }

  /** Reads of this process waiting for an event right now (they have read once and found nothing). */
  get waiting(): number {
    return this.pausing;
  }

  beforeApplicationShutdown(): void {
    this.stopping.abort();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.fanOut?.close();
  }

  private async startOf(ctx: DeveloperContext, after: string | undefined): Promise<FeedPosition> {
    if (after === undefined) return FEED_START;
    if (after === 'now') return this.repository.now(ctx);
    if (after.startsWith('evt_')) {
      const position = await this.repository.positionOf(ctx, after);
      if (!position) throw validationError('after', 'is not an event of this account in this mode');
      return position;
    }
    return decodeFeedPosition(after, 'after');
  }

  /**
   * Makes the account's new events NOTIFY for the whole wait. Returns whether the lease was
   * (re)written just now: an event whose transaction ran before then may not have notified.
   */
  private async holdLease(ctx: DeveloperContext, key: string, waitMs: number): Promise<boolean> {
    if ((this.leases.get(key) ?? 0) > Date.now() + waitMs + LEASE_MARGIN_MS) return false;
    await this.repository.holdListenerLease(ctx, LEASE_SECONDS);
    const now = Date.now();
    this.leases.set(key, now + LEASE_SECONDS * 1000);
    if (this.leases.size > MAX_REMEMBERED_LEASES) for (const [other, end] of this.leases) if (end < now) this.leases.delete(other);
    return true;
  }

  private listener(): NotificationFanOut {
    this.fanOut ??= new NotificationFanOut({
      connectionString: (this.dataSource.options as { url?: string }).url as string,
      channel: EVENT_FEED_CHANNEL,
      // One per API process: the pid tells the processes' sessions apart in pg_stat_activity.
      applicationName: `gateway-event-feed:${process.pid}`,
      onProblem: (message) => this.logger.warn(message),
    });
    return this.fanOut;
  }
}

function toEventResponse(row: FeedEventRow): EventResponse {
  return { id: row.id, event: row.name, created_at: row.created_at.toISOString(), mode: row.mode, data: row.data };
}
