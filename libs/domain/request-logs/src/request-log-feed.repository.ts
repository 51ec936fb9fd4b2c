import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Mode } from '@gateway/contracts';
import { type FeedPage, type FeedPosition, feedNowPosition, feedNowSql, feedReadSql, type FeedRowPosition, toFeedPage } from '@gateway/platform';
import type { DataSource } from 'typeorm';
import { escapeLike, type RequestLogRecord } from './request-logs.repository';

export type RequestLogFeedRow = Omit<RequestLogRecord, 'cursor_at'> & FeedRowPosition;

export interface RequestLogFeedQuery {
  developerId: string;
  mode: Mode;
  statusFrom?: number;
  statusTo?: number;
  pathContains?: string;
  /** Leaves out the requests of this route pattern (the feed's own: a tail must not show itself). */
  excludeRoute?: string;
  /** Only entries of requests that arrived in the last `windowSeconds` (created_at; also what prunes the partitions). */
  windowSeconds: number;
}

const COLUMNS = `id, request_id, created_at, duration_ms, method, path, status_code, mode, api_key_id, client_ip, user_agent, request_body, response_body`;

/** The request-log feed's reads of request_logs (index request_logs_feed, migration AddRequestLogFeed). */
@Injectable()
export class RequestLogFeedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The entries after `after` in the order they were written, at most `limit` (+1 to tell whether there are more). */
  async read(query: RequestLogFeedQuery, after: FeedPosition, limit: number): Promise<FeedPage<RequestLogFeedRow>> {
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const where = this.conditions(query, bind);
    if (query.statusFrom !== undefined) where.push(`status_code >= ${bind(query.statusFrom)}`);
    if (query.statusTo !== undefined) where.push(`status_code <= ${bind(query.statusTo)}`);
    if (query.pathContains) where.push(`path ILIKE ${bind(`%${escapeLike(query.pathContains)}%`)} ESCAPE '\\'`);
    if (query.excludeRoute) where.push(`route IS DISTINCT FROM ${bind(query.excludeRoute)}`);
    const sql = feedReadSql({ columns: COLUMNS, table: 'request_logs', where }, after, limit, bind);
    return toFeedPage((await this.dataSource.query(sql, params)) as RequestLogFeedRow[], after, limit);
  }

  /** The feed's "now" for the account and mode: what is written from here on comes after it. */
  async now(query: Pick<RequestLogFeedQuery, 'developerId' | 'mode' | 'windowSeconds'>): Promise<FeedPosition> {
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const where = this.conditions(query, bind);
    const [row] = (await this.dataSource.query(feedNowSql({ table: 'request_logs', where }), params)) as FeedRowPosition[];
    return feedNowPosition(row);
  }

  private conditions(query: Pick<RequestLogFeedQuery, 'developerId' | 'mode' | 'windowSeconds'>, bind: (value: unknown) => string): string[] {
    // The bound is a value, not `now() - …`: PostgreSQL prunes partitions by a constant at
    // planning time, where an expression of now() leaves every partition in the plan (~28 ms a read).
    const since = new Date(Date.now() - query.windowSeconds * 1000);
    return [`developer_id = ${bind(query.developerId)}`, `mode = ${bind(query.mode)}`, `created_at >= ${bind(since)}`];
  }
}
