import { Injectable } from '@nestjs/common';
import { MAX_PAGE_SIZE, type Mode, type RequestLogResponse } from '@gateway/contracts';
import { type DeveloperContext, newestFirst, validationError } from '@gateway/platform';
import { type RequestLogRecord, RequestLogsRepository } from './request-logs.repository';

export interface RequestLogFilter {
  developerId: string;
  mode?: Mode;
  status?: number;
  statusClass?: '2xx' | '3xx' | '4xx' | '5xx';
  /** Case-insensitive substring of the path (no query string is ever stored). */
  pathContains?: string;
  requestId?: string;
  /** Inclusive. */
  from?: Date;
  /** Inclusive. */
  to?: Date;
  /** 1–100. */
  limit: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** A stored request as the portal shows it (the wire type); bodies are already redacted. */
export type RequestLogView = RequestLogResponse;

export interface RequestLogPage {
  items: RequestLogView[];
  nextCursor: string | null;
  hasMore: boolean;
}

const STATUS_CLASSES = { '2xx': 200, '3xx': 300, '4xx': 400, '5xx': 500 } as const;

/** Reads a developer's request log (portal). Retention is RequestLogPartitionsService's (scheduler). */
@Injectable()
export class RequestLogsService {
  constructor(private readonly repository: RequestLogsRepository) {}

  /**
   * One developer's requests, newest first. Pages follow a keyset cursor, so requests logged
   * while someone pages cause neither gaps nor duplicates.
   * @throws validation_error for a bad limit, cursor, status or status class
   */
  async search(filter: RequestLogFilter): Promise<RequestLogPage> {
    if (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > MAX_PAGE_SIZE) {
      throw validationError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    const range = statusRange(filter);
    const page = newestFirst.page(filter);
    const query = {
      developerId: filter.developerId,
      mode: filter.mode,
      statusFrom: range?.from,
      statusTo: range?.to,
      pathContains: filter.pathContains,
      requestId: filter.requestId,
      from: filter.from,
      to: filter.to,
    };
    const rows = await this.repository.search(query, page);
    // cursor_at is created_at to the microsecond: the next page starts exactly after the last row.
    return page.toPage(rows, toView, (row) => ({ createdAt: row.cursor_at, id: row.id }));
  }

  /**
   * The entry of the request `requestId` (its X-Request-Id), or null: when another developer or
   * the other mode made it, when it is not written yet (the writer batches, see RequestLogWriter)
   * or when it was purged.
   */
  async findByRequestId(ctx: DeveloperContext, requestId: string): Promise<RequestLogView | null> {
    const row = await this.repository.findByRequestId(ctx, requestId);
    return row ? toView(row) : null;
  }

  /** Platform staff: requests logged since `since` across every account, with the 4xx and 5xx among them (the admin overview's error rates). */
  statusClassCounts(since: Date): Promise<{ total: number; clientErrors: number; serverErrors: number }> {
    return this.repository.statusClassCounts(since);
  }
}

/** Status and status class narrow the same range; together they must both hold (the search's and the feed's). */
export function statusRange(filter: Pick<RequestLogFilter, 'status' | 'statusClass'>): { from: number; to: number } | null {
  if (filter.status === undefined && filter.statusClass === undefined) return null;
  let from = 100;
  let to = 599;
  if (filter.status !== undefined) {
    if (!Number.isInteger(filter.status) || filter.status < from || filter.status > to) {
      throw validationError('status', 'must be an HTTP status code from 100 to 599');
    }
    from = to = filter.status;
  }
  if (filter.statusClass !== undefined) {
    if (!Object.hasOwn(STATUS_CLASSES, filter.statusClass)) {
      throw validationError('status_class', 'must be one of 2xx, 3xx, 4xx, 5xx');
    }
    const classFrom = STATUS_CLASSES[filter.statusClass];
    from = Math.max(from, classFrom);
    to = Math.min(to, classFrom + 99);
  }
  return { from, to };
}

/** A stored row as the API shows it (the search's and the feed's). */
export function toView(row: Omit<RequestLogRecord, 'cursor_at'>): RequestLogView {
  return {
    id: row.id,
    request_id: row.request_id,
    created_at: row.created_at.toISOString(),
    duration_ms: row.duration_ms,
    method: row.method,
    path: row.path,
    status_code: row.status_code,
    mode: row.mode,
    api_key_id: row.api_key_id,
    client_ip: row.client_ip,
    user_agent: row.user_agent,
    request_body: row.request_body,
    response_body: row.response_body,
  };
}
